/**
 * Loads community packages the way n8n does (n8n-core's PackageDirectoryLoader over the
 * package.json `n8n` section, so the compiled files under dist/ for our package), and exposes
 * their node and credential types to the engine.
 */
import './container';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeExecutionData,
	IExecuteFunctions,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, UnexpectedError } from 'n8n-workflow';
import { resolve } from 'node:path';

import { REPO_ROOT } from './registry-paths';

export { REPO_ROOT };

export interface LoadedPackage {
	packageName: string;
	directory: string;
	loader: PackageDirectoryLoader;
	/** node types by full name, e.g. `n8n-nodes-document-extraction.documentExtraction` */
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	/** credential types by name, e.g. `documentExtractionApi` */
	credentialTypes: Record<string, ICredentialType>;
}

/**
 * Some files of a package rather than all of it: n8n-nodes-base lists about 500 nodes and 400
 * credentials, and a workflow around ours needs a handful (paths as in its package.json `n8n`).
 */
export interface PackageFiles {
	directory: string;
	nodes: string[];
	credentials?: string[];
}

const loadedPackages = new Map<string, Promise<LoadedPackage>>();

async function loadPackageUncached(directory: string, files?: Omit<PackageFiles, 'directory'>): Promise<LoadedPackage> {
	const loader = new PackageDirectoryLoader(directory);
	if (files) {
		for (const file of files.nodes) loader.loadNodeFromFile(file);
		for (const file of files.credentials ?? []) loader.loadCredentialFromFile(file);
	} else {
		await loader.loadAll();
	}
	const nodeTypes: LoadedPackage['nodeTypes'] = {};
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		nodeTypes[`${loader.packageName}.${name}`] = type;
	}
	const credentialTypes: LoadedPackage['credentialTypes'] = {};
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		credentialTypes[name] = type;
	}
	return { packageName: loader.packageName, directory: loader.directory, loader, nodeTypes, credentialTypes };
}

/**
 * Loads a package directory (or only the given files of it) once per test file. Our own package
 * must be built first (`ensureBuilt()`): the loader reads the files that package.json's `n8n`
 * section names.
 */
export async function loadPackage(directory: string = REPO_ROOT, files?: Omit<PackageFiles, 'directory'>): Promise<LoadedPackage> {
	const root = resolve(directory);
	const key = files ? `${root}:${JSON.stringify(files)}` : root;
	let loaded = loadedPackages.get(key);
	if (!loaded) {
		loaded = loadPackageUncached(root, files);
		loadedPackages.set(key, loaded);
		loaded.catch(() => loadedPackages.delete(key));
	}
	return await loaded;
}

function passThroughDescription(
	name: string,
	displayName: string,
	overrides: Partial<INodeTypeDescription>,
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description: `Harness stand-in for ${name}: passes its input items through`,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
		...overrides,
	};
}

class PassThroughNode implements INodeType {
	constructor(readonly description: INodeTypeDescription) {}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/**
 * Stand-ins for n8n-nodes-base nodes that workflows around ours use. The manual trigger is the
 * start node: the harness puts the input items on its execution stack and it passes them on.
 */
export const STAND_IN_NODE_TYPES: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': new PassThroughNode(
		passThroughDescription('n8n-nodes-base.manualTrigger', 'When clicking ‘Execute workflow’', {
			group: ['trigger'],
			inputs: [],
		}),
	),
	'n8n-nodes-base.noOp': new PassThroughNode(
		passThroughDescription('n8n-nodes-base.noOp', 'No Operation, do nothing', {}),
	),
};

/** INodeTypes over the loaded packages plus the stand-ins (what n8n's NodeTypes service is). */
export class HarnessNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	static of(packages: LoadedPackage[]): HarnessNodeTypes {
		return new HarnessNodeTypes(Object.assign({}, STAND_IN_NODE_TYPES, ...packages.map((p) => p.nodeTypes)));
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) {
			throw new UnexpectedError(
				`Unknown node type "${nodeType}". Known: ${Object.keys(this.types).join(', ')}`,
			);
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.types).map((name) => [name, {}]));
	}

	names(): string[] {
		return Object.keys(this.types);
	}
}

/** ICredentialTypes over the loaded packages (what n8n's CredentialTypes service is). */
export class HarnessCredentialTypes implements ICredentialTypes {
	constructor(private readonly packages: LoadedPackage[]) {}

	recognizes(credentialType: string): boolean {
		return this.packages.some((p) => credentialType in p.credentialTypes);
	}

	getByName(credentialType: string): ICredentialType {
		for (const p of this.packages) {
			const type = p.credentialTypes[credentialType];
			if (type) return type;
		}
		throw new UnexpectedError(`Unknown credential type "${credentialType}"`);
	}

	getSupportedNodes(credentialType: string): string[] {
		for (const p of this.packages) {
			const known = p.loader.known.credentials[credentialType];
			if (known) return (known.supportedNodes ?? []).map((node) => `${p.packageName}.${node}`);
		}
		return [];
	}

	getParentTypes(typeName: string): string[] {
		const direct = this.recognizes(typeName) ? (this.getByName(typeName).extends ?? []) : [];
		return direct.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
}

/** Resolves a short node name (`documentExtraction`) against a package to its full type name. */
export function fullNodeTypeName(pkg: LoadedPackage, type: string): string {
	if (type.includes('.')) return type;
	return `${pkg.packageName}.${type}`;
}
