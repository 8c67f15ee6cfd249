/**
 * The install route that works before the package is on the npm registry (docs/install.md):
 * `npm run pack` writes the tarball, and the user installs it into n8n's nodes folder with the
 * documented command, then starts n8n:
 *
 *   mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --legacy-peer-deps /path/to/n8n-nodes-document-extraction-X.Y.Z.tgz
 *
 * Here: `npm run pack` as a user runs it (its printed path), that npm command in a fresh n8n user
 * folder's .n8n/nodes (offline, with an empty npm cache: the tarball needs nothing from a
 * registry), then the real n8n 2.41.1 starts on that folder. It loads the three nodes and the
 * credential from .n8n/nodes/node_modules (as it loads every package there). Then the examples as a
 * user imports them into their own n8n (README, Examples; examples/README.md, "In your own n8n"):
 * n8n runs with its own default file access (only ~/.n8n-files, under a home folder of the test's),
 * not the sandbox's; the upload example runs as imported, and the folder example runs once its
 * documents are copied to ~/.n8n-files/documents and its File(s) Selector names that absolute
 * path. The Docker route runs the same npm command inside the container's /home/node/.n8n/nodes.
 *
 * Without --legacy-peer-deps, npm 7+ installs the peer dependency n8n-workflow (the newest, not
 * n8n's own) with its dependency tree into the nodes folder; here its native isolated-vm failed
 * to build (measured with npm 11.19.1 on Node 20): the flag skips peer dependencies, as n8n's own
 * installer does (it deletes peerDependencies before `npm install`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SEEDED_KEYS, startEmulator, type Emulator } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_PDF_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME } from '../../dev/documents';
import { writeExampleDocuments } from '../../dev/example-documents';
import { makeUserFolder } from '../../dev/n8n/n8n-env';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { ensureN8n } from '../../dev/n8n/n8n-runtime';
import { runCommand } from '../../dev/n8n/run-command';
import {
	CALLBACK_TRIGGER_TYPE,
	CREDENTIAL_TYPE,
	EMULATOR_CREDENTIAL_ID,
	NODE_TYPE,
	PACKAGE_NAME,
	REPOSITORY_ROOT,
	TRIGGER_TYPE,
	executionOutput,
	findNode,
	readExample,
	runWorkflow,
	stackEnv,
	waitForExecution,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';

describe('installed from the tarball of npm run pack into n8n\'s nodes folder with npm (n8n 2.41.1)', () => {
	let work: string;
	let tarball: string;
	let emulator: Emulator;
	let userFolder: string;
	let nodesDir: string;
	let n8n: N8nInstance;
	let installOutput: string;
	let home: string;
	let credentialId: string;

	beforeAll(async () => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-tarball-'));
		// As a user runs it: the tarball's path is what the command prints on stdout.
		tarball = (await runCommand('npm', ['run', '--silent', 'pack', '--', '--destination', path.join(work, 'release')], { cwd: REPOSITORY_ROOT })).trim();

		userFolder = makeUserFolder('n8n-dex-tarball-');
		// The user's home: n8n 2.x reads files only under ~/.n8n-files by default. As the README says,
		// the sample documents are copied there (a copy, not a link).
		home = path.join(work, 'home');
		await writeExampleDocuments(path.join(home, '.n8n-files', 'documents'));
		// The documented command; the user folder's .n8n stands for ~/.n8n (N8N_USER_FOLDER).
		nodesDir = path.join(userFolder, '.n8n', 'nodes');
		fs.mkdirSync(nodesDir, { recursive: true });
		installOutput = await runCommand('npm', ['install', '--legacy-peer-deps', tarball], {
			cwd: nodesDir,
			// Nothing from a registry: an empty cache and offline (as in a container without network).
			env: { ...process.env, npm_config_cache: path.join(work, 'npm-cache'), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
		});

		emulator = await startEmulator({ processingDelayMs: 300 });
		// As a user's own n8n: no file access of the sandbox's (N8N_RESTRICT_FILE_ACCESS_TO), n8n's default.
		const { N8N_RESTRICT_FILE_ACCESS_TO: _sandboxOnly, ...ownN8n } = stackEnv(userFolder);
		n8n = await startN8n({ userFolder, runtime: await ensureN8n(), env: { ...ownN8n, HOME: home } });
	});

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (!process.env.E2E_KEEP) {
			if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
			if (work) fs.rmSync(work, { recursive: true, force: true });
		}
	});

	test('npm run pack printed the path of the tarball it wrote, named after the package and version', () => {
		const { version } = JSON.parse(fs.readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { version: string };
		expect(path.isAbsolute(tarball)).toBe(true);
		expect(path.basename(tarball)).toBe(`${PACKAGE_NAME}-${version}.tgz`);
		expect(fs.statSync(tarball).size).toBeGreaterThan(0);
	});

	test('npm installed the package alone into the nodes folder: no peer n8n-workflow, the tarball recorded in its package.json', () => {
		expect(installOutput).toMatch(/added 1 package/);
		expect(fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([PACKAGE_NAME]);
		const ledger = JSON.parse(fs.readFileSync(path.join(nodesDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(Object.keys(ledger.dependencies)).toEqual([PACKAGE_NAME]);
		expect(ledger.dependencies[PACKAGE_NAME]).toMatch(/^file:.*\.tgz$/);
		expect(fs.existsSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'dist', 'nodes', 'DocumentExtraction', 'DocumentExtraction.node.js'))).toBe(true);
	});

	test('n8n loaded the three nodes and the credential from the nodes folder at start; the Community Nodes page lists nothing (n8n lists only what it installed itself)', async () => {
		const nodeTypes = (await (await n8n.request('/types/nodes.json')).json()) as Array<{ name: string }>;
		expect(nodeTypes.map((type) => type.name)).toEqual(expect.arrayContaining([NODE_TYPE, TRIGGER_TYPE, CALLBACK_TRIGGER_TYPE]));
		const credentialTypes = (await (await n8n.request('/types/credentials.json')).json()) as Array<{ name: string }>;
		expect(credentialTypes.map((type) => type.name)).toContain(CREDENTIAL_TYPE);
		expect(await n8n.rest<unknown[]>('/community-packages')).toEqual([]);
	});

	/** An example as a user imports it (Import, From File) and saves it, with their credential picked in its nodes. */
	async function importExample(file: string, change: (workflow: WorkflowJson) => void = () => undefined): Promise<string> {
		const { id: _exampleId, ...workflow } = JSON.parse(JSON.stringify(readExample(file)).split(EMULATOR_CREDENTIAL_ID).join(credentialId)) as WorkflowJson;
		change(workflow as WorkflowJson);
		return (await n8n.rest<{ id: string }>('/workflows', { body: { ...workflow, active: false } })).id;
	}

	test('a credential made afterwards: its test passes', async () => {
		const data = { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl };
		const name = 'Document Extraction (tarball install)';
		credentialId = (await n8n.rest<{ id: string }>('/credentials', { body: { name, type: CREDENTIAL_TYPE, data } })).id;
		const tested = await n8n.rest<{ status: string }>('/credentials/test', { body: { credentials: { id: credentialId, name, type: CREDENTIAL_TYPE, data } } });
		expect(tested.status).toBe('OK');
	});

	test('the upload example imported as is (only the credential picked) runs: the sample invoice it carries comes out with its values', async () => {
		const workflowId = await importExample('upload-and-extract.json');
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, workflowId, "When clicking 'Execute workflow'"));
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(executionOutput(execution, 'Upload and extract')).toEqual([expect.objectContaining({ fileName: INVOICE_PDF_FILE_NAME, status: 'processed', values: INVOICE_EXPECTED })]);
	});

	test('the folder example, as the README says: documents in ~/.n8n-files/documents, File(s) Selector set to that absolute path; every document ends processed or failed', async () => {
		const folder = path.join(home, '.n8n-files', 'documents');
		const workflowId = await importExample('extract-documents-from-disk.json', (workflow) => {
			findNode(workflow, 'Read documents from disk').parameters.fileSelector = `${folder}/*`;
		});
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, workflowId, 'Run the example'));
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		const items = executionOutput(execution, 'Upload, wait and read values');
		const single = items.filter((item) => item.zipUploadId === undefined);
		expect(single.find((item) => item.fileName === INVOICE_PDF_FILE_NAME)).toMatchObject({ status: 'processed', values: INVOICE_EXPECTED });
		expect(single.find((item) => item.fileName === RECEIPT_FILE_NAME)).toMatchObject({ status: 'processed', values: RECEIPT_EXPECTED });
		// The ZIP's members: three processed, the empty file and the broken PDF failed with their reasons.
		expect(items.filter((item) => item.status === 'failed').map((item) => [item.fileName, item.errorReason])).toEqual([
			['empty.txt', 'The file is empty'],
			['broken.pdf', 'The PDF could not be read'],
		]);
		expect(items.filter((item) => item.status === 'processed')).toHaveLength(5);
	});

	test('the folder example imported unchanged finds nothing to read, as the README warns (documents/* is relative)', async () => {
		const workflowId = await importExample('extract-documents-from-disk.json');
		const execution = await waitForExecution(n8n, await runWorkflow(n8n, workflowId, 'Run the example'));
		expect(execution.status).toBe('error');
		expect(execution.data?.resultData.error?.message).toMatch(/No file\(s\) found/);
	});

	test('nothing but 127.0.0.1 was reached', () => {
		expect(n8n.outboundAttempts()).toEqual([]);
	});
});
