/**
 * Installed as users install (`npm run test:registry`): the package is published by `npm publish`
 * to a local npm registry (verdaccio, dev/n8n/registry/verdaccio.ts), and the real n8n 2.41.1
 * installs it through its Community Nodes REST API (what Settings -> Community Nodes calls) with
 * N8N_COMMUNITY_PACKAGES_REGISTRY pointing at that registry. A credential and a workflow made
 * after the install run; a newer version is published and installed through n8n's update path
 * (PATCH), and the same workflow and credential keep working, also after a restart; the uninstall (DELETE) leaves
 * n8n healthy.
 *
 * n8n serves a registry other than registry.npmjs.org only with the licensed feature
 * feat:communityNodes:customRegistry (CommunityPackagesService.getNpmRegistry). Without a license
 * the one switch is n8n's own test mode: E2E_TESTS=true loads its E2E controller, whose
 * PATCH /rest/e2e/feature turns the feature on. Nothing else of the install path changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { SEEDED_KEYS, startEmulator, type Emulator } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME } from '../../dev/documents';
import { writeExampleDocuments } from '../../dev/example-documents';
import { makeUserFolder } from '../../dev/n8n/n8n-env';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { ensureN8n } from '../../dev/n8n/n8n-runtime';
import {
	CALLBACK_TRIGGER_TYPE,
	CREDENTIAL_TYPE,
	DOCUMENTS_FOLDER,
	EMULATOR_CREDENTIAL_ID,
	NODE_TYPE,
	TRIGGER_TYPE,
	executionOutput,
	readExample,
	runWorkflow,
	stackEnv,
	waitForExecution,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { packPackage, publishPackage, startVerdaccio, type PackedPackage, type Registry } from '../../dev/n8n/registry/verdaccio';

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	/** Set by n8n's list (`npm outdated`) when the registry has a newer version: the editor's Update button. */
	updateAvailable?: string;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
}

const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

function nextPatch(version: string): string {
	const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
	if (!match) throw new Error(`not a semver version: ${version}`);
	return `${match[1]}.${match[2]}.${Number(match[3]) + 1}`;
}

describe('published to an npm registry, installed, updated and uninstalled through n8n\'s Community Nodes API (n8n 2.41.1)', () => {
	let registry: Registry;
	let emulator: Emulator;
	let n8n: N8nInstance;
	let userFolder: string;
	let first: PackedPackage;
	let credentialId: string;
	let workflowId: string;
	let n8nEnv: Record<string, string>;
	let secondVersion: string;
	const installedManifest = () => path.join(userFolder, '.n8n', 'nodes', 'node_modules', first.name, 'package.json');
	const installedVersionOnDisk = () => (JSON.parse(fs.readFileSync(installedManifest(), 'utf8')) as { version: string }).version;
	/** Tarballs the registry served (its JSON log lines). */
	const tarballsServed = (): string[] =>
		registry
			.logs()
			.split('\n')
			.filter((line) => line.startsWith('{'))
			.map((line) => JSON.parse(line) as { request?: { method: string; url: string }; status?: number; bytes?: { out: number } })
			.filter((entry) => entry.request?.method === 'GET' && entry.request.url.endsWith('.tgz') && entry.status === 200 && (entry.bytes?.out ?? 0) > 0)
			.map((entry) => entry.request!.url.split('/').pop()!);

	beforeAll(async () => {
		registry = await startVerdaccio();
		first = await packPackage();
		await publishPackage(registry, first);
		emulator = await startEmulator({ processingDelayMs: 300 });
		userFolder = makeUserFolder('n8n-dex-registry-');
		await writeExampleDocuments(path.join(userFolder, DOCUMENTS_FOLDER));
		n8nEnv = {
			...stackEnv(userFolder),
			N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
			E2E_TESTS: 'true',
			// n8n's list of installed packages runs `npm outdated` without a registry: npm's own
			// configuration names it, as an administrator with a private registry sets it.
			npm_config_registry: `${registry.url}/`,
			// The npm that n8n runs gets an empty cache of its own, so every tarball comes from the registry.
			npm_config_cache: path.join(userFolder, 'npm-cache'),
		};
		n8n = await startN8n({ userFolder, runtime: await ensureN8n(), env: n8nEnv });
		await enableCustomRegistry();
	});

	async function enableCustomRegistry(): Promise<void> {
		const enabled = await n8n.request('/rest/e2e/feature', { method: 'PATCH', body: { feature: CUSTOM_REGISTRY_FEATURE, enabled: true } });
		if (!enabled.ok) throw new Error(`PATCH /rest/e2e/feature answered ${enabled.status}: ${await enabled.text()}`);
	}

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		await registry?.stop();
		if (userFolder && !process.env.E2E_KEEP) fs.rmSync(userFolder, { recursive: true, force: true });
	});

	test('install (POST /rest/community-packages): n8n fetches the published tarball from the registry and loads its three nodes and the credential', async () => {
		expect(await n8n.rest<InstalledPackage[]>('/community-packages')).toEqual([]);
		const installed = await n8n.rest<InstalledPackage>('/community-packages', { body: { name: first.name } });
		expect(installed.packageName).toBe(first.name);
		expect(installed.installedVersion).toBe(first.version);
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual([NODE_TYPE, TRIGGER_TYPE, CALLBACK_TRIGGER_TYPE].sort());
		expect(installedVersionOnDisk()).toBe(first.version);
		expect(tarballsServed()).toContain(`${first.name}-${first.version}.tgz`);

		const listed = await n8n.rest<InstalledPackage[]>('/community-packages');
		expect(listed.map((entry) => [entry.packageName, entry.installedVersion])).toEqual([[first.name, first.version]]);
		const types = (await (await n8n.request('/types/credentials.json')).json()) as Array<{ name: string }>;
		expect(types.map((type) => type.name)).toContain(CREDENTIAL_TYPE);
	});

	test('a credential and a workflow made after the install: the credential test passes and upload -> wait -> values runs', async () => {
		const credential = await n8n.rest<{ id: string }>('/credentials', {
			body: { name: 'Document Extraction (registry install)', type: CREDENTIAL_TYPE, data: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl } },
		});
		credentialId = credential.id;
		const tested = await n8n.rest<{ status: string }>('/credentials/test', {
			body: { credentials: { id: credentialId, name: 'Document Extraction (registry install)', type: CREDENTIAL_TYPE, data: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl } } },
		});
		expect(tested.status).toBe('OK');

		const disk = readExample('extract-documents-from-disk.json');
		const { id: _exampleId, ...workflow } = JSON.parse(
			JSON.stringify(disk).split(EMULATOR_CREDENTIAL_ID).join(credentialId),
		) as WorkflowJson;
		workflowId = (await n8n.rest<{ id: string }>('/workflows', { body: { ...workflow, active: false } })).id;
		await expectWorkflowExtracts();
	});

	async function expectWorkflowExtracts(): Promise<void> {
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, workflowId, 'Run the example'));
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		const items = executionOutput(execution, 'Upload, wait and read values').filter((item) => item.zipUploadId === undefined);
		expect(items.find((item) => item.fileName === INVOICE_PDF_FILE_NAME)).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
		expect(items.find((item) => item.fileName === RECEIPT_FILE_NAME)).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });
	}

	test('update (PATCH /rest/community-packages) to a newer published version: the same workflow and credential keep working', async () => {
		const second = await packPackage({ version: nextPatch(first.version) });
		secondVersion = second.version;
		await publishPackage(registry, second);
		const listed = await n8n.rest<InstalledPackage[]>('/community-packages');
		expect(listed.map((entry) => [entry.installedVersion, entry.updateAvailable])).toEqual([[first.version, second.version]]);
		const updated = await n8n.rest<InstalledPackage>('/community-packages', { method: 'PATCH', body: { name: first.name, version: second.version } });
		expect(updated.installedVersion).toBe(second.version);
		expect(installedVersionOnDisk()).toBe(second.version);
		expect(tarballsServed()).toContain(`${first.name}-${second.version}.tgz`);
		expect((await n8n.rest<InstalledPackage[]>('/community-packages')).map((entry) => entry.installedVersion)).toEqual([second.version]);

		const workflow = await n8n.rest<{ nodes: WorkflowJson['nodes'] }>(`/workflows/${workflowId}`);
		expect(workflow.nodes.find((node) => node.type === NODE_TYPE)?.credentials?.documentExtractionApi.id).toBe(credentialId);
		await expectWorkflowExtracts();
	});

	test('after a restart n8n loads the updated version from its nodes folder and the workflow still runs', async () => {
		await n8n.stop();
		n8n = await startN8n({ userFolder, runtime: await ensureN8n(), env: n8nEnv });
		await enableCustomRegistry();
		expect((await n8n.rest<InstalledPackage[]>('/community-packages')).map((entry) => entry.installedVersion)).toEqual([secondVersion]);
		await expectWorkflowExtracts();
	});

	test('uninstall (DELETE /rest/community-packages): the package is gone and n8n stays healthy', async () => {
		const removed = await n8n.request(`/rest/community-packages?name=${encodeURIComponent(first.name)}`, { method: 'DELETE' });
		expect(removed.status).toBe(200);
		expect(await n8n.rest<InstalledPackage[]>('/community-packages')).toEqual([]);
		expect(fs.existsSync(installedManifest())).toBe(false);
		expect((await fetch(`${n8n.url}/healthz/readiness`)).status).toBe(200);

		const builtIn: WorkflowJson = {
			name: 'registry test: n8n still runs workflows',
			nodes: [
				{ id: 'b1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'b2', name: 'Nothing', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
			],
			connections: { Start: { main: [[{ node: 'Nothing', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		};
		const id = (await n8n.rest<{ id: string }>('/workflows', { body: { ...builtIn, active: false } })).id;
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, id, 'Start'));
		expect(execution.status).toBe('success');
	});

	test('nothing but 127.0.0.1 was reached; n8n\'s own ban-list check (api.n8n.io) was refused, and n8n went on as it does offline', () => {
		const attempts = n8n.outboundAttempts();
		// CommunityPackagesService.checkNpmPackageStatus asks api.n8n.io whether a package is banned on
		// every install and update, and takes no answer as "not banned".
		expect(attempts.filter((line) => !line.endsWith('refused api.n8n.io:443'))).toEqual([]);
	});
});
