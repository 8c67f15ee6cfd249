/**
 * The API key goes to the API host only: never through a redirect, never to a URL the API hands
 * back, never into an output item, an error (message, description, stored execution) or a log
 * line, whatever the service answers. Presigned URL signatures stay out of errors too.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { keyLeaks, requestsCarrying } from '../../dev/emulator';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import type { RunNodeResult } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

const KEY = SEEDED_KEYS.readWrite;

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

async function run(parameters: IDataObject, inputItems?: INodeExecutionData[], apiKey: string = KEY): Promise<RunNodeResult> {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', ...parameters },
		credentials: credentialsFor(emulator, apiKey),
		inputItems,
	});
}

/** Everything a run leaves behind that a person or a log could see. */
function everythingShown(result: RunNodeResult): string {
	return JSON.stringify([
		result.items,
		result.error,
		(result.error as { description?: string } | undefined)?.description,
		(result.error as { stack?: string } | undefined)?.stack,
		result.result.run.data,
		result.result.logs.map((line) => line.text),
	]);
}

function expectNoKeyAnywhere(result: RunNodeResult, key = KEY): void {
	expect(everythingShown(result)).not.toContain(key);
	expect(keyLeaks(emulator, key)).toEqual([]);
}

describe('redirects are never followed', () => {
	it.each([301, 302, 303, 307, 308] as const)('an API answer %i to another host is an error naming the status and host', async (status) => {
		emulator.faults.redirectNext({ method: 'GET', path: /\/values$/, status });
		const file = await seedFile(emulator);
		emulator.requests.length = 0;

		const result = await run({ operation: 'getValues', fileId: byId(file.fileId) });

		const trapHost = new URL(emulator.trapUrl).host;
		expect(result.error?.message).toContain(`answered HTTP ${status} with a redirect to the host http://${trapHost}`);
		expect(result.error?.message).toContain('does not follow redirects');
		expect(requestsTo(emulator, 'trap' as 'api')).toEqual([]);
		expect(requestsCarrying(emulator, KEY).every((entry) => entry.host === 'api')).toBe(true);
		expectNoKeyAnywhere(result);
	});

	it('a redirected POST (an upload) is not repeated elsewhere', async () => {
		emulator.faults.redirectNext({ method: 'POST', path: '/files/upload', status: 307 });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/HTTP 307 with a redirect/);
		expect(requestsTo(emulator, 'trap' as 'api')).toEqual([]);
		expect(requestsTo(emulator, 'api', 'POST')).toHaveLength(1);
		expectNoKeyAnywhere(result);
	});

	it('a storage PUT answered with a redirect is not followed (no byte goes to the other host)', async () => {
		emulator.faults.redirectNext({ host: 'storage', method: 'PUT', status: 307 });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/Storage \(file "invoice-INV-2024-0042\.txt".*answered HTTP 307 with a redirect to the host/);
		expect(requestsTo(emulator, 'trap' as 'api')).toEqual([]);
		expectNoKeyAnywhere(result);
	});

	it('a download answered with a redirect is not followed', async () => {
		const file = await seedFile(emulator);
		emulator.faults.redirectNext({ host: 'storage', method: 'GET', status: 302 });

		const result = await run({ operation: 'download', fileId: byId(file.fileId) });

		expect(result.error?.message).toMatch(/answered HTTP 302 with a redirect/);
		expect(requestsTo(emulator, 'trap' as 'api')).toEqual([]);
		expectNoKeyAnywhere(result);
	});
});

describe('URLs the API hands back are judged before anything is sent to them', () => {
	it.each([
		['ftp://127.0.0.1/bucket/x?{query}', /scheme "ftp:"/],
		['javascript:alert(1)', /scheme "javascript:"/],
		['file:///etc/passwd', /scheme "file:"/],
		['http://storage.invalid/x?{query}', /plain http to the host "storage\.invalid"/],
		['http://user:pw@127.0.0.1:9/x?{query}', /user name or password/],
		['{original}\n', /control or invisible/],
	])('a presigned upload URL %j is refused and nothing is uploaded', async (url, reason) => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/The presigned upload URL the API answered was refused/);
		expect(result.error?.message).toMatch(reason);
		expect(result.error?.message).toContain('Nothing was sent to it');
		expect(requestsTo(emulator, 'storage')).toEqual([]);
		expect(requestsTo(emulator, 'trap' as 'api')).toEqual([]);
		expectNoKeyAnywhere(result);
	});

	it('a multipart upload with one refused part URL sends no part at all', async () => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload/multipart', url: 'ftp://127.0.0.1{path}?{query}' });
		const big = await createBinaryItem({ buffer: Buffer.alloc(6 * 1024 * 1024, 65), fileName: 'big.txt', mimeType: 'text/plain' });

		const result = await run({ operation: 'upload', options: { multipart: 'always', partSize: 5 } }, [big]);

		expect(result.error?.message).toMatch(/The presigned part URL the API answered was refused/);
		expect(requestsTo(emulator, 'storage')).toEqual([]);
		expectNoKeyAnywhere(result);
	});

	it('a preview URL with another scheme is neither output nor downloaded', async () => {
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: 'data:text/html,<script>x</script>', count: 2 });

		const preview = await run({ operation: 'getPreviewUrl', fileId: byId(file.fileId) });
		const download = await run({ operation: 'download', fileId: byId(file.fileId) });

		expect(preview.error?.message).toMatch(/The preview URL the API answered was refused: its scheme "data:"/);
		expect(download.error?.message).toMatch(/The preview URL the API answered was refused/);
		expect(requestsTo(emulator, 'storage')).toEqual([]);
	});

	it('a presigned URL on another (loopback) host gets the file but never the key', async () => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: '{trap}{path}?{query}' });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5, waitTimeout: 2 } }, [await textItem()]);

		const trapped = requestsTo(emulator, 'trap' as 'api');
		expect(trapped).toHaveLength(1);
		expect(trapped[0].headers['x-api-key']).toBeUndefined();
		expectNoKeyAnywhere(result);
	});
});

describe('whatever the service echoes, the key and URL signatures stay out of what is shown', () => {
	it('a problem+json that repeats the key in title, detail, code, requestId and errors[]', async () => {
		emulator.faults.failNext({
			method: 'GET',
			path: /\/values$/,
			status: 422,
			detail: `Your key ${KEY} is not allowed here`,
			problem: {
				title: `Bad key ${KEY}`,
				code: `KEY_${KEY}`,
				requestId: KEY,
				message: `legacy ${KEY}`,
				errors: [{ code: 'KEY', detail: `key=${encodeURIComponent(KEY)}`, pointer: `/${KEY}` }, { parameter: KEY }],
			},
		});
		const file = await seedFile(emulator);

		const result = await run({ operation: 'getValues', fileId: byId(file.fileId) });

		expect(result.error?.message).toContain('HTTP 422');
		expect(result.error?.message).toContain('[redacted]');
		expectNoKeyAnywhere(result);
	});

	it('a short key (4 characters) is redacted too', async () => {
		const shortKey = 'k3y9';
		const record = emulator.state.keys.get(KEY);
		emulator.state.keys.set(shortKey, { ...(record as object), key: shortKey } as never);
		emulator.faults.failNext({ method: 'GET', path: /\/values$/, status: 400, detail: `bad request for ${shortKey}`, problem: { title: shortKey } });
		const file = await seedFile(emulator);

		const result = await run({ operation: 'getValues', fileId: byId(file.fileId) }, undefined, shortKey);

		expect(result.error?.message).toContain('HTTP 400');
		expect(everythingShown(result)).not.toContain(shortKey);
		emulator.state.keys.delete(shortKey);
	});

	it('an item the service answered with the key in it does not carry the key', async () => {
		const file = await seedFile(emulator);
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: `{original}&note=${KEY}` });

		const result = await run({ operation: 'getPreviewUrl', fileId: byId(file.fileId) });

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.signedUrl)).toContain('[redacted]');
		expectNoKeyAnywhere(result);
	});

	it('a storage error that repeats the URL signature does not show it', async () => {
		const signature = 'SIGNATURE-0123456789abcdef';
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: `{original}&X-Amz-Security-Token=${signature}` });
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 403, detail: `SignatureDoesNotMatch for ${signature}` });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/Storage refused .*HTTP 403/);
		expect(everythingShown(result)).not.toContain(signature);
		expect(everythingShown(result)).not.toMatch(/X-Amz-Signature=[0-9a-f]{16}/);
	});

	it('an unreachable storage host is named without the signed query', async () => {
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: 'http://127.0.0.1:9{path}?{query}' });

		const result = await run({ operation: 'upload', options: { pollInterval: 0.5 } }, [await textItem()]);

		expect(result.error?.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9 while sending or reading file/);
		expect(result.error?.message).toMatch(/connection was refused/);
		expect(everythingShown(result)).not.toMatch(/X-Amz-Signature=[0-9a-f]{16}/);
	});
});
