import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FixtureServer } from './fixtures/fixture-server';
import { FIXTURE_API_KEY, FIXTURE_PACKAGE_DIR, startFixtureServer } from './fixtures/fixture-server';
import type { BinaryDataMode } from '../../dev/harness';
import { createBinaryItem, readBinary, runNode, runWorkflow } from '../../dev/harness';

let server: FixtureServer;
let credentials: Record<string, { apiKey: string; baseUrl: string }>;

beforeAll(async () => {
	server = await startFixtureServer();
	credentials = { harnessFixtureApi: { apiKey: FIXTURE_API_KEY, baseUrl: server.baseUrl } };
});

afterAll(async () => {
	await server.close();
});

beforeEach(() => {
	server.requests.length = 0;
});

describe('runNode through WorkflowExecute', () => {
	it('sends the header of the credential type generic authenticate, with its expression resolved', async () => {
		const { items, error } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: 'hello' },
			credentials,
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([{ echoed: 'hello' }]);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/echo', query: { value: 'hello' } });
		expect(server.requests[0].headers['x-api-key']).toBe(FIXTURE_API_KEY);
	});

	it('returns the failed node error, which a wrong key causes at the server', async () => {
		const { items, error, result } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: 'x' },
			credentials: { harnessFixtureApi: { apiKey: 'wrong-key', baseUrl: server.baseUrl } },
		});

		expect(items).toEqual([]);
		expect(error?.name).toBe('NodeApiError');
		expect((error as { httpCode?: string }).httpCode).toBe('401');
		expect(result.status).toBe('error');
		// n8n-core sends a request that got 401 once more after preAuthentication (as in n8n).
		expect(server.requests.map((request) => request.path)).toEqual(['/echo', '/echo']);
		expect(server.requests[0].headers['x-api-key']).toBe('wrong-key');
	});

	it('keeps pairedItem of every output item pointing at its input item', async () => {
		const { items } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: '={{ $json.word }}' },
			credentials,
			inputItems: [{ json: { word: 'one' } }, { json: { word: 'two' } }, { json: { word: 'three' } }],
		});

		expect(items.map((item) => item.json.echoed)).toEqual(['one', 'two', 'three']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('honours continueOnFail: the failed item becomes an error item and the run succeeds', async () => {
		const { items, error, result } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: 'x' },
			credentials: { harnessFixtureApi: { apiKey: 'wrong-key', baseUrl: server.baseUrl } },
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(result.status).toBe('success');
		expect(items).toHaveLength(1);
		expect(String(items[0].json.error)).toMatch(/401|Authorization failed/i);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('captures the node log lines, and the API key is in none of them nor in the output', async () => {
		const { items, result } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: 'log me' },
			credentials,
		});

		const fixtureLines = result.logs.filter((line) => line.message === 'Harness fixture request');
		expect(fixtureLines).toHaveLength(1);
		expect(fixtureLines[0].metadata).toMatchObject({ operation: 'echo', baseUrl: server.baseUrl });
		expect(result.logs.length).toBeGreaterThan(1);
		for (const line of result.logs) expect(line.text).not.toContain(FIXTURE_API_KEY);
		expect(JSON.stringify(items)).not.toContain(FIXTURE_API_KEY);
	});

	it('captures the engine error lines of a failed request, without the (wrong) key', async () => {
		const wrongKey = 'wrong-key-that-must-not-leak';
		const { error, result } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'echo', value: 'x' },
			credentials: { harnessFixtureApi: { apiKey: wrongKey, baseUrl: server.baseUrl } },
		});

		expect(error).toBeDefined();
		const errorLines = result.logs.filter((line) => line.level === 'error');
		expect(errorLines.map((line) => line.message)).toContain('Authorization failed - please check your credentials');
		for (const line of result.logs) expect(line.text).not.toContain(wrongKey);
		expect(JSON.stringify(error)).not.toContain(wrongKey);
	});

	it('runs workflow JSON with a manual trigger and reports each node output', async () => {
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'When clicking', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
					{ name: 'Echo', type: 'harnessFixture', parameters: { operation: 'echo', value: 'a' } },
					{ name: 'Echo again', type: 'harnessFixture', parameters: { operation: 'echo', value: '={{ $json.echoed }}b' } },
				],
				connections: {
					'When clicking': { main: [[{ node: 'Echo', type: 'main', index: 0 }]] },
					Echo: { main: [[{ node: 'Echo again', type: 'main', index: 0 }]] },
				},
			},
			{ packageDir: FIXTURE_PACKAGE_DIR, credentials },
		);

		expect(result.status).toBe('success');
		expect(result.nodeExecutionOrder).toEqual(['When clicking', 'Echo', 'Echo again']);
		expect(result.outputOf('Echo again').map((item) => item.json)).toEqual([{ echoed: 'ab' }]);
	});
});

describe.each<BinaryDataMode>(['default', 'filesystem'])('binary data in %s mode', (mode) => {
	const content = Buffer.from(`binary fixture content for ${mode} mode\n`.repeat(1000));
	const sha256 = createHash('sha256').update(content).digest('hex');

	it('stores an input file the way n8n does and the node reads it (streamed from disk in filesystem mode)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'harness-binary-'));
		const filePath = join(dir, 'invoice.pdf');
		writeFileSync(filePath, content);
		const input = await createBinaryItem({ filePath, mode, json: { n: 1 } });

		expect(input.binary?.data).toMatchObject({ fileName: 'invoice.pdf', mimeType: 'application/pdf' });
		if (mode === 'filesystem') {
			expect(input.binary?.data.id).toMatch(/^filesystem-v2:/);
		} else {
			expect(input.binary?.data.id).toBeUndefined();
			expect(Buffer.from(input.binary?.data.data ?? '', 'base64').equals(content)).toBe(true);
		}

		const { items, error } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'upload', binaryPropertyName: 'data' },
			credentials,
			binaryDataMode: mode,
			inputItems: [input],
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			bytes: content.length,
			sha256,
			contentType: 'application/pdf',
			fileName: 'invoice.pdf',
			streamed: mode === 'filesystem',
		});
	});

	it('creates an input item from a Buffer', async () => {
		const input = await createBinaryItem({ buffer: content, fileName: 'notes.txt', mode, propertyName: 'doc' });
		expect(input.binary?.doc.mimeType).toBe('text/plain');
		expect((await readBinary(input.binary!.doc)).equals(content)).toBe(true);
	});

	it('reads back binary data a node produced', async () => {
		const { items, error } = await runNode({
			packageDir: FIXTURE_PACKAGE_DIR,
			type: 'harnessFixture',
			parameters: { operation: 'download' },
			credentials,
			binaryDataMode: mode,
		});

		expect(error).toBeUndefined();
		const binary = items[0].binary?.data;
		expect(binary).toMatchObject({ fileName: 'downloaded.txt', mimeType: 'text/plain' });
		expect(Boolean(binary?.id)).toBe(mode === 'filesystem');
		expect((await readBinary(binary!)).equals(server.fileBytes)).toBe(true);
	});
});
