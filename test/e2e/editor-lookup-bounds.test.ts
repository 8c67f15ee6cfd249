/**
 * The editor's file list against a service that never answers, in the real n8n, through the REST
 * call the editor makes when File → From List opens (POST /rest/dynamic-node-parameters/resource-locator-results,
 * with the saved credential): the lookup runs on its own bounds (EDITOR_LIMITS), so the editor
 * gets an error within EDITOR_LIMITS.answerWithinMs that names the bound, after two requests. The
 * time it took is printed, not asserted; the engine-level cases: test/node/editor-lookup-bounds.test.ts.
 */
import { SEEDED_KEYS, startEmulator, type Emulator } from '../../dev/emulator';
import { startN8n, type N8nInstance } from '../../dev/n8n/n8n-launcher';
import { CREDENTIAL_TYPE, NODE_TYPE, prepareUserFolder } from '../../dev/n8n/n8n-stack';
import { EDITOR_LIMITS } from '../../nodes/shared/limits';
import { e2eRuntime, versionEnv } from './helpers';

describe(`the editor's lookups in n8n ${process.env.N8N_E2E_VERSION || '2.41.1'}`, () => {
	let emulator: Emulator;
	let n8n: N8nInstance;
	let credential: { id: string; name: string };

	beforeAll(async () => {
		const runtime = await e2eRuntime();
		const prepared = await prepareUserFolder({ runtime, build: false });
		emulator = await startEmulator({ processingDelayMs: 0 });
		n8n = await startN8n({ userFolder: prepared.userFolder, runtime, env: { ...prepared.env, ...versionEnv(runtime) } });
		const name = 'Emulator for the lookups';
		const saved = await n8n.rest<{ id: string }>('/credentials', {
			body: { name, type: CREDENTIAL_TYPE, data: { apiKey: SEEDED_KEYS.readWrite, baseUrl: emulator.apiUrl } },
		});
		credential = { id: saved.id, name };
	}, 300_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
	});

	/** The file list of File → From List, as the editor asks for it. */
	async function fileList(): Promise<{ status: number; body: { message?: string; data?: unknown } }> {
		const response = await n8n.request('/rest/dynamic-node-parameters/resource-locator-results', {
			body: {
				nodeTypeAndVersion: { name: NODE_TYPE, version: 2 },
				path: 'parameters.fileId',
				methodName: 'searchFiles',
				filter: '',
				currentNodeParameters: { resource: 'file', operation: 'getValues', fileId: { __rl: true, mode: 'list', value: '' } },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		});
		return { status: response.status, body: (await response.json()) as { message?: string } };
	}

	test('the file list answers while the service answers', async () => {
		const { status, body } = await fileList();

		expect(status).toBe(200);
		expect(Array.isArray((body.data as { results?: unknown }).results)).toBe(true);
	});

	test('a service that never answers: the editor gets an error naming the bound, after two requests', async () => {
		emulator.requests.length = 0;
		emulator.faults.hangNext({ method: 'GET', path: '/files', count: 10 });

		const started = Date.now();
		const { status, body } = await fileList();
		process.stderr.write(`[e2e] n8n ${n8n.n8nVersion}: the file list against a service that never answers ended after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

		expect(status).toBeGreaterThanOrEqual(400);
		expect(body.message).toMatch(/no answer within \d+ s \(the time an editor lookup gives one answer\) \(2 attempts\)/);
		expect(body.message).toContain(`An editor lookup's retry wait is ${EDITOR_LIMITS.maxRetryWaitMs / 1000} s`);
		expect(emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.endsWith('/files'))).toHaveLength(2);
	}, 120_000);
});
