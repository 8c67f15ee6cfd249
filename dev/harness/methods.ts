/**
 * loadOptions() / listSearch() / resourceMapping(): what the editor calls to fill a dropdown, a
 * resource locator list or a resource mapper's fields. As in the n8n application (DynamicNodeParametersService): a temporary workflow holding
 * the node with the parameters the user has entered so far, and n8n-core's LoadOptionsContext.
 */
import './container';

import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	ResourceMapperFields,
} from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { fullNodeTypeName } from './registry';
import type { PackageOptions } from './session';
import { openSession } from './session';

export interface NodeMethodOptions extends PackageOptions {
	type: string;
	typeVersion?: number;
	/** name of the method under methods.loadOptions / methods.listSearch */
	method: string;
	/** the node's parameters as entered so far (getCurrentNodeParameter reads them) */
	parameters?: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** path of the parameter being filled, e.g. 'parameters.fileId'; default 'parameters' */
	path?: string;
}

async function prepare(options: NodeMethodOptions): Promise<{ context: LoadOptionsContext; nodeType: INodeType }> {
	const session = await openSession(options);
	const credentials = options.credentials ?? {};
	session.credentialsHelper.setCredentials(credentials);
	const type = fullNodeTypeName(session.mainPackage, options.type);
	const nodeType = session.nodeTypes.getByNameAndVersion(type, options.typeVersion);
	const version = nodeType.description.version;
	const parameters = options.parameters ?? {};
	const node: INode = {
		id: 'harness-load-options',
		name: 'Temp-Node',
		type,
		typeVersion: options.typeVersion ?? (Array.isArray(version) ? Math.max(...version) : version),
		position: [0, 0],
		parameters,
		credentials: Object.fromEntries(
			Object.keys(credentials).map((name) => [
				name,
				{ id: HarnessCredentialsHelper.credentialId(name), name: `${name} (harness)` },
			]),
		),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: session.nodeTypes,
	});
	const additionalData = createAdditionalData({
		credentialsHelper: session.credentialsHelper,
		currentNodeParameters: parameters,
	});
	return {
		context: new LoadOptionsContext(workflow, node, additionalData, options.path ?? 'parameters'),
		nodeType,
	};
}

/** Calls `methods.loadOptions[method]` as the editor does. */
export async function loadOptions(options: NodeMethodOptions): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = await prepare(options);
	const method = nodeType.methods?.loadOptions?.[options.method];
	if (!method) throw new UnexpectedError(`Node has no loadOptions method "${options.method}"`);
	return await method.call(context);
}

/** Calls `methods.listSearch[method]` (resource locator lists) as the editor does. */
export async function listSearch(
	options: NodeMethodOptions & { filter?: string; paginationToken?: string },
): Promise<INodeListSearchResult> {
	const { context, nodeType } = await prepare(options);
	const method = nodeType.methods?.listSearch?.[options.method];
	if (!method) throw new UnexpectedError(`Node has no listSearch method "${options.method}"`);
	return await method.call(context, options.filter, options.paginationToken);
}

/**
 * Calls `methods.resourceMapping[method]` as n8n's REST endpoint for the editor does
 * (POST /rest/dynamic-node-parameters/resource-mapper-fields), path `parameters.columns` unless
 * given, and keeps the first field of each id as n8n does
 * (DynamicNodeParametersService.removeDuplicateResourceMappingFields).
 */
export async function resourceMapping(options: NodeMethodOptions): Promise<ResourceMapperFields> {
	const { context, nodeType } = await prepare({ ...options, path: options.path ?? 'parameters.columns' });
	const method = nodeType.methods?.resourceMapping?.[options.method];
	if (!method) throw new UnexpectedError(`Node has no resourceMapping method "${options.method}"`);
	const answer = await method.call(context);
	const seen = new Set<string>();
	return { ...answer, fields: answer.fields.filter((field) => !seen.has(field.id) && Boolean(seen.add(field.id))) };
}
