/**
 * Every URL the API hands back (the upload URL, each part URL, a preview link) is judged by the
 * URL policy exactly once, however many attempts its transfer takes: the API layer approves it
 * and carries it as an approved URL, and the request path's storage transfers take only that.
 * Counted on the built package's own URL policy (the module instance the engine loaded).
 */
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

import type { INodeParameters } from 'n8n-workflow';

import { REPO_ROOT, createBinaryItem, ensureBuilt, runNode } from '../../dev/harness';
import { byId, runFileOperation, seedFile } from './file-operations-support';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

const MIB = 1024 * 1024;

interface UrlPolicyModule {
	approveReturnedUrl: (value: unknown, role: string, base: unknown) => string;
}

let urlPolicy: UrlPolicyModule;
let approvals: jest.SpyInstance;
beforeAll(async () => {
	await ensureBuilt();
	// The same module instance the package's nodes use (n8n-core's loader requires the built files).
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	urlPolicy = require(path.join(REPO_ROOT, 'dist/nodes/shared/transport/returnedUrls.js')) as UrlPolicyModule;
});
beforeEach(() => {
	approvals = jest.spyOn(urlPolicy, 'approveReturnedUrl');
});
afterEach(() => approvals.mockRestore());

/** The role and the URL of every approval, in order. */
function approved(): Array<{ role: string; url: string }> {
	return approvals.mock.calls.map(([value, role]) => ({ role: String(role), url: String(value) }));
}

async function upload(data: Buffer, options: INodeParameters = {}) {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', operation: 'upload', waitForCompletion: false, options },
		credentials: credentialsFor(emulator),
		inputItems: [await createBinaryItem({ buffer: data, fileName: 'scan.bin', mimeType: 'application/octet-stream', mode: 'filesystem' })],
		binaryDataMode: 'filesystem',
	});
}

describe('a URL the API hands back is approved exactly once', () => {
	it('a single upload: its upload URL once', async () => {
		const { error } = await upload(Buffer.from('Invoice\nTotal Amount: 12.50\n'));

		expect(error).toBeUndefined();
		expect(approved().map(({ role }) => role)).toEqual(['presigned upload URL']);
	});

	it('a multipart upload of 3 parts, one part stored on its third attempt: each part URL once', async () => {
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 2 });

		// A 1 MB threshold and 5 MB parts: 12 MiB goes in 3 parts.
		const { error } = await upload(randomBytes(12 * MIB), { multipartThreshold: 1, partSize: 5 });

		expect(error).toBeUndefined();
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(5);
		const calls = approved();
		expect(calls.map(({ role }) => role)).toEqual(['presigned part URL', 'presigned part URL', 'presigned part URL']);
		expect(new Set(calls.map(({ url }) => url)).size).toBe(3);
	});

	it('a download: its preview link once, judged where the API answered it', async () => {
		const file = await seedFile(emulator);
		approvals.mockClear();

		const { error } = await runFileOperation(emulator, 'download', { fileId: byId(file.fileId), binaryPropertyName: 'data' });

		expect(error).toBeUndefined();
		expect(approved().map(({ role }) => role)).toEqual(['preview URL']);
	});
});
