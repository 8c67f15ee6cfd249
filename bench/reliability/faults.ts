/** The fault cases of the reliability matrix: what the service (or the network) does wrong. */
import { randomUUID } from 'node:crypto';

import { waitForRequest } from '../../dev/emulator';
import { addFiles } from '../../dev/emulator/bulk-files';
import { brokenPdf, invoicePdf, mixedZip } from './documents';
import type { MatrixCase } from './matrix';

const UPLOAD = { options: { pollInterval: 0.5 } };
const BUDGET = 'Max Retry Wait 60 s';

const byId = (fileId: string) => ({ __rl: true, mode: 'id', value: fileId });

function uploadCase(name: string, expect: MatrixCase['expect'], setup: MatrixCase['setup'], extra: Partial<MatrixCase> = {}): MatrixCase {
	return {
		group: 'fault',
		name,
		operation: 'file.upload',
		expect,
		parameters: UPLOAD,
		input: async (context) => await context.documents(1),
		setup,
		bound: BUDGET,
		...extra,
	};
}

export const FAULT_CASES: MatrixCase[] = [
	// 429 and its retryAfter, on the upload request
	uploadCase('429 with retryAfter 0 (three times)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 0, count: 3 }),
	),
	uploadCase('429 with retryAfter 1', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 1 }),
	),
	uploadCase('429 with retryAfter 30', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 30 }),
	),
	uploadCase('429 with retryAfter 86400 (huge)', 'error', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 86_400 }),
	),
	uploadCase('429 without retryAfter or Retry-After (three times)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: '(omit)', retryAfterHeader: '(omit)', count: 3 }),
	),
	uploadCase('429 with retryAfter -5', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: -5, retryAfterHeader: '(omit)' }),
	),
	uploadCase('429 with an unparsable Retry-After ("soon")', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: '(omit)', retryAfterHeader: 'soon' }),
	),
	uploadCase('429 with Retry-After: 2 (seconds, header only)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: '(omit)', retryAfterHeader: '2' }),
	),
	uploadCase('429 with Retry-After an HTTP date 3 s ahead', 'success', ({ emulator }) =>
		emulator.faults.failNext({
			method: 'POST',
			path: '/files/upload',
			status: 429,
			retryAfterBody: '(omit)',
			retryAfterHeader: new Date(Date.now() + 3000).toUTCString(),
		}),
	),
	uploadCase('429 with Retry-After an HTTP date in the past', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfterBody: '(omit)', retryAfterHeader: 'Wed, 21 Oct 2015 07:28:00 GMT' }),
	),
	{
		group: 'fault',
		name: '429 to one of 8 items at once (batching): the others hold too',
		operation: 'file.upload',
		expect: 'success',
		parameters: { options: { pollInterval: 0.5, batching: { batch: { batchSize: 8, batchInterval: 0 } } } },
		input: async (context) => await context.documents(8),
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 2 }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: 'rate limit 5 requests/s for 20 items (batching 8)',
		operation: 'file.upload',
		expect: 'success',
		parameters: { options: { pollInterval: 0.5, batching: { batch: { batchSize: 8, batchInterval: 0 } } } },
		input: async (context) => await context.documents(20),
		emulatorOptions: { rateLimit: { limit: 5, windowMs: 1000 } },
		bound: BUDGET,
	},
	// 5xx on each endpoint family
	uploadCase('500 on the upload request (twice)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 500, count: 2 }),
	),
	uploadCase('502 on the status checks (twice)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 502, count: 2 }),
	),
	uploadCase('503 on reading the values (twice)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ method: 'GET', path: /\/values$/, status: 503, count: 2 }),
	),
	uploadCase('503 on the status checks until the wait gives up', 'error', ({ emulator }) =>
		emulator.faults.failNext({ method: 'GET', path: /\/uploads\//, status: 503, count: 100 }),
	),
	{
		group: 'fault',
		name: '503 on the file list (Get Many, twice)',
		operation: 'file.getMany',
		expect: 'success',
		seed: 3,
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'GET', path: '/files', status: 503, count: 2 }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: '500 on delete (once; same Idempotency-Key on the retry)',
		operation: 'file.delete',
		expect: 'success',
		seed: 3,
		parameters: (ids) => ({ fileIds: ids.join(',') }),
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'DELETE', path: '/files', status: 500, phase: 'after' }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: '503 on query execution (twice)',
		operation: 'query.execute',
		expect: 'success',
		seed: 2,
		parameters: { queryConfig: '{"selectedFields":[{"field":"fileName","alias":"name"}]}' },
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'POST', path: '/query/execute', status: 503, count: 2 }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: '500 on report export status (answer lost after the change)',
		operation: 'file.reportExportStatus',
		expect: 'success',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), integrationExportStatus: 'completed' }),
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'PATCH', path: /\/files\/[^/]+$/, status: 500, phase: 'after' }),
		bound: BUDGET,
	},
	// the network
	uploadCase('connection reset after the upload request was handled (answer lost)', 'success', ({ emulator }) =>
		emulator.faults.resetConnectionNext({ method: 'POST', path: '/files/upload', phase: 'after' }),
	),
	uploadCase(
		'connection reset in the middle of the storage PUT (64 KiB sent)',
		'success',
		({ emulator }) => emulator.faults.resetConnectionNext({ host: 'storage', method: 'PUT', afterBytes: 64 * 1024 }),
		{ input: async (context) => await context.documents(1, { bytes: 512 * 1024 }) },
	),
	{
		group: 'fault',
		name: 'the API accepts the connection and never answers (Request Timeout 2 s)',
		operation: 'file.getValues',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { requestTimeout: 2 } }),
		setup: ({ emulator }) => emulator.faults.hangNext({ method: 'GET', path: /\/values$/, count: 10 }),
		bound: '4 attempts x 2 s + backoff',
	},
	uploadCase(
		'an answer that stops halfway (status check, Request Timeout 2 s)',
		'success',
		({ emulator }) => emulator.faults.hangNext({ method: 'GET', path: /\/uploads\//, mode: 'stall-body' }),
		{ parameters: { options: { pollInterval: 0.5, requestTimeout: 2 } }, bound: 'Request Timeout 2 s' },
	),
	uploadCase(
		'an answer cut short (connection closed mid-body)',
		'success',
		({ emulator }) => emulator.faults.hangNext({ method: 'GET', path: /\/uploads\//, mode: 'close-body' }),
	),
	uploadCase(
		'storage never answers the PUT (Request Timeout 2 s)',
		'success',
		({ emulator }) => emulator.faults.hangNext({ host: 'storage', method: 'PUT' }),
		{ parameters: { options: { pollInterval: 0.5, requestTimeout: 2 } }, bound: 'idle 2-3 s per attempt' },
	),
	{
		group: 'fault',
		name: 'a download that stalls once after 10 bytes (Request Timeout 2 s): tried again',
		operation: 'file.download',
		expect: 'success',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { requestTimeout: 2 } }),
		setup: ({ emulator }) => emulator.faults.hangNext({ host: 'storage', method: 'GET', mode: 'stall-body', afterBytes: 10 }),
		bound: 'idle 2-3 s, then a retry',
	},
	{
		group: 'fault',
		name: 'every download stalls after 10 bytes (Request Timeout 2 s)',
		operation: 'file.download',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { requestTimeout: 2 } }),
		setup: ({ emulator }) => emulator.faults.hangNext({ host: 'storage', method: 'GET', mode: 'stall-body', afterBytes: 10, count: 100 }),
		bound: 'idle 2-3 s per attempt, 4 attempts',
	},
	// redirects and URLs handed back
	{
		group: 'fault',
		name: '302 from the API to another host',
		operation: 'file.getValues',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]) }),
		setup: ({ emulator }) => emulator.faults.redirectNext({ method: 'GET', path: /\/values$/, status: 302 }),
	},
	uploadCase('307 from the API on the upload request', 'error', ({ emulator }) =>
		emulator.faults.redirectNext({ method: 'POST', path: '/files/upload', status: 307 }),
	),
	uploadCase('307 from storage on the PUT', 'error', ({ emulator }) =>
		emulator.faults.redirectNext({ host: 'storage', method: 'PUT', status: 307 }),
	),
	uploadCase('presigned URL rewritten to ftp://', 'error', ({ emulator }) =>
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: 'ftp://127.0.0.1{path}?{query}' }),
	),
	uploadCase('presigned URL rewritten to plain http on another host', 'error', ({ emulator }) =>
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: 'http://storage.invalid{path}?{query}' }),
	),
	uploadCase('presigned URL rewritten to carry user:password@', 'error', ({ emulator }) =>
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: 'http://user:pw@127.0.0.1:9{path}?{query}' }),
	),
	uploadCase('presigned URL rewritten to another loopback host (the trap)', 'error', ({ emulator }) =>
		emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/upload', url: '{trap}{path}?{query}' }),
		{ parameters: { options: { pollInterval: 0.5, waitTimeout: 3 } }, bound: 'Wait Timeout 3 s' },
	),
	{
		group: 'fault',
		name: 'preview URL rewritten to javascript:',
		operation: 'file.getPreviewUrl',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]) }),
		setup: ({ emulator }) => emulator.faults.rewriteUrlsNext({ method: 'POST', path: '/files/preview', url: 'javascript:alert(1)' }),
	},
	// storage refusals and expiry
	uploadCase('storage 403 AccessDenied on the PUT', 'error', ({ emulator }) =>
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 403 }),
	),
	uploadCase('storage 503 SlowDown with Retry-After 0 (twice)', 'success', ({ emulator }) =>
		emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, retryAfter: 0, count: 2 }),
	),
	uploadCase('presigned URL expired before the PUT arrives', 'error', ({ emulator }) => {
		emulator.faults.delayNext({ host: 'storage', method: 'PUT', delayMs: 300 });
		void waitForRequest(emulator, (entry) => entry.host === 'storage').then(() => emulator.faults.expirePresignedUrls());
	}),
	{
		group: 'fault',
		name: 'a multipart part fails twice (503), then succeeds',
		operation: 'file.upload',
		expect: 'success',
		parameters: { options: { pollInterval: 0.5, multipart: 'always', partSize: 5 } },
		input: async (context) => await context.documents(1, { bytes: 12 * 1024 * 1024 }),
		setup: ({ emulator }) => emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 2 }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: 'a multipart part keeps failing (503)',
		operation: 'file.upload',
		expect: 'error',
		parameters: { options: { pollInterval: 0.5, multipart: 'always', partSize: 5, partConcurrency: 1 } },
		input: async (context) => await context.documents(1, { bytes: 12 * 1024 * 1024 }),
		setup: ({ emulator }) => emulator.faults.failNext({ host: 'storage', method: 'PUT', status: 503, count: 100 }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: 'multipart "complete" answer lost (handled, then reset)',
		operation: 'file.upload',
		expect: 'success',
		parameters: { options: { pollInterval: 0.5, multipart: 'always', partSize: 5 } },
		input: async (context) => await context.documents(1, { bytes: 6 * 1024 * 1024 }),
		setup: ({ emulator }) => emulator.faults.resetConnectionNext({ method: 'POST', path: '/files/upload/multipart/complete', phase: 'after' }),
		bound: BUDGET,
	},
	{
		group: 'fault',
		name: 'multipart plan with fractional sizes and offsets (4 MiB, 4 MiB + 0.5 B, 4 MiB - 0.5 B): refused before any part',
		operation: 'file.upload',
		expect: 'error',
		parameters: { options: { pollInterval: 0.5, multipart: 'always', partSize: 5 } },
		input: async (context) => await context.documents(1, { bytes: 12 * 1024 * 1024 }),
		setup: ({ emulator }) => emulator.faults.partPlanNext({ method: 'POST', path: '/files/upload/multipart', sizes: [4 * 1024 * 1024, 4 * 1024 * 1024 + 0.5, 4 * 1024 * 1024 - 0.5] }),
	},
	// documents that fail
	{
		group: 'fault',
		name: 'a document that fails processing (broken PDF)',
		operation: 'file.upload',
		expect: 'error',
		parameters: UPLOAD,
		input: brokenPdf,
	},
	{
		group: 'fault',
		name: 'a ZIP whose members partly fail',
		operation: 'file.upload',
		expect: 'success',
		parameters: UPLOAD,
		input: mixedZip,
	},
	{
		group: 'fault',
		name: 'a PDF beside a broken one, On Error: Continue',
		operation: 'file.upload',
		expect: 'success',
		continueOnFail: true,
		parameters: UPLOAD,
		input: async (context) => [...(await invoicePdf(context)), ...(await brokenPdf(context))],
	},
	// delete
	{
		group: 'fault',
		name: "partial delete in the specification's shape (1 of 4 protected)",
		operation: 'file.delete',
		expect: 'success',
		seed: 4,
		parameters: (ids) => ({ fileIds: ids.join(',') }),
		setup: ({ emulator }) => {
			emulator.setDeleteAnswer('spec');
			emulator.protectFiles([[...emulator.state.files.keys()][1]]);
		},
	},
	// stopping
	uploadCase(
		'the execution is stopped during a 30 s rate-limit wait',
		'stopped',
		({ emulator }) => emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 30 }),
		{ stopWhen: async ({ emulator }) => await waitForRequest(emulator, (entry) => entry.status === 429) },
	),
	uploadCase(
		'the execution is stopped while a request hangs',
		'stopped',
		({ emulator }) => emulator.faults.hangNext({ method: 'GET', path: /\/uploads\// }),
		{ stopWhen: async ({ emulator }) => await waitForRequest(emulator, (entry) => /\/uploads\//.test(entry.path)) },
	),
	// bounded by construction (whatever the service answers)
	{
		group: 'fault',
		name: 'the API accepts Get Values and never answers (every attempt)',
		operation: 'file.getValues',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { requestTimeout: 5, maxRateLimitWait: 5 } }),
		setup: ({ emulator }) => emulator.faults.hangNext({ method: 'GET', path: /\/values$/, count: 100 }),
		bound: 'Request Timeout 5 s + Max Retry Wait 5 s',
	},
	{
		group: 'fault',
		name: 'the API trickles its Get Values answer (10 bytes every 0.2 s)',
		operation: 'file.getValues',
		expect: 'success',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { requestTimeout: 3 } }),
		setup: ({ emulator }) => emulator.faults.trickleNext({ host: 'api', method: 'GET', path: /\/values$/, bytesPerSecond: 50, chunkBytes: 10 }),
		bound: 'Request Timeout 3 s per attempt',
	},
	{
		group: 'fault',
		name: 'Get Values answered with a value nested 3,000 lists deep (Simplify on): kept 100 levels, the rest reported in simplifyNotes',
		operation: 'file.getValues',
		expect: 'success',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), simplify: true }),
		setup: ({ emulator }) =>
			emulator.faults.editAnswerNext({
				method: 'GET',
				path: /\/values$/,
				edit: (body) => {
					let value: unknown = 'bottom';
					for (let level = 0; level < 3_000; level++) value = [value];
					const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
					answer.values.formValues[0].fields.push({ title: 'Deep', type: 'array', value });
					return answer;
				},
			}),
		bound: 'Simplify: 100 levels, 20 notes',
	},
	{
		group: 'fault',
		name: 'storage trickles every download (2 bytes/s)',
		operation: 'file.download',
		expect: 'error',
		seed: 1,
		parameters: (ids) => ({ fileId: byId(ids[0]), options: { lowSpeedTime: 3, maxRateLimitWait: 10 } }),
		setup: ({ emulator }) => emulator.faults.trickleNext({ host: 'storage', method: 'GET', bytesPerSecond: 2, chunkBytes: 1, count: 100 }),
		bound: 'Min Transfer Speed 1 KB/s over 3 s per attempt; Max Retry Wait 10 s',
	},
	uploadCase(
		'storage reads the upload at 100 bytes/s (a 16 MiB stream from disk)',
		'error',
		({ emulator }) => emulator.faults.trickleNext({ host: 'storage', method: 'PUT', direction: 'request', bytesPerSecond: 100, count: 100 }),
		{
			parameters: { options: { pollInterval: 0.5, lowSpeedTime: 3, maxRateLimitWait: 5, requestTimeout: 5 } },
			input: async (context) => await context.documents(1, { bytes: 16 * 1024 * 1024 }),
			binaryDataMode: 'filesystem',
			bound: 'Min Transfer Speed 1 KB/s over 3 s per attempt; Max Retry Wait 5 s',
		},
	),
	{
		group: 'fault',
		name: 'Get Many answered with 400 MB of JSON (streamed, no length)',
		operation: 'file.getMany',
		expect: 'error',
		parameters: { returnAll: false, limit: 5 },
		setup: ({ emulator }) => emulator.faults.hugeAnswerNext({ host: 'api', method: 'GET', path: '/files', bytes: 400 * 1024 * 1024 }),
		bound: 'Max Answer Size 64 MB',
	},
	{
		group: 'fault',
		name: 'Get Many, Return All, the service ignores page (every page the same full page)',
		operation: 'file.getMany',
		expect: 'error',
		seed: 0,
		parameters: { returnAll: true },
		setup: ({ emulator }) => {
			addFiles(emulator.state, 150);
			emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 100_000 });
		},
		bound: 'a page with nothing new ends it; at most total / 100 + 1 requests',
	},
	uploadCase(
		'429 (retryAfter 3) to one execution while another with the same key runs',
		'success',
		({ emulator }) => emulator.faults.failNext({ method: 'POST', path: '/files/upload', status: 429, retryAfter: 3 }),
		{
			alongside: async ({ emulator }, run) => {
				await waitForRequest(emulator, (entry) => entry.status === 429);
				// The emulator logs the 429 as it sends it; the first execution hears of it a moment later.
				// A request sent in that moment cannot know of the pause; one sent after it must wait.
				await new Promise((resolve) => setTimeout(resolve, 250));
				return await run('workspace.getSubscription');
			},
			bound: 'the key\'s 429 gate, process-wide',
		},
	),
	// Issue 34: the gate after refused requests, a 429 nobody may wait for, a big Return All, a slow PUT's budget
	{
		group: 'fault',
		name: '429 (retryAfter 2) then 5,000 items refused at the gate (Max Retry Wait 0, Continue), then another execution',
		operation: 'workspace.getSubscription',
		expect: 'success',
		continueOnFail: true,
		parameters: { options: { maxRateLimitWait: 0 } },
		input: async () => Array.from({ length: 5000 }, () => ({ json: {} })),
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'GET', path: '/subscription', status: 429, retryAfter: 2 }),
		alongside: async ({ emulator }, run) => {
			await waitForRequest(emulator, (entry) => entry.status === 429);
			// The refused items are done in well under a second; this execution then waits only the pause left.
			await new Promise((resolve) => setTimeout(resolve, 1000));
			return await run('workspace.getSubscription');
		},
		bound: 'the pause left (2 s) + 100 ms: refused requests give their places back',
	},
	{
		group: 'fault',
		name: '429 (retryAfter 5) to an item that may wait 2 s, beside another execution with the same key',
		operation: 'workspace.getSubscription',
		expect: 'error',
		parameters: { options: { maxRateLimitWait: 2 } },
		setup: ({ emulator }) => emulator.faults.failNext({ method: 'GET', path: '/subscription', status: 429, retryAfter: 5 }),
		alongside: async ({ emulator }, run) => {
			await waitForRequest(emulator, (entry) => entry.status === 429);
			await new Promise((resolve) => setTimeout(resolve, 250));
			return await run('workspace.getSubscription');
		},
		bound: 'every 429 closes the gate: the other execution waits the 5 s',
	},
	{
		group: 'fault',
		name: 'Get Many, Return All: 2 MB pages of fresh files without a total, for ever',
		operation: 'file.getMany',
		expect: 'error',
		parameters: { returnAll: true },
		setup: ({ emulator }) => {
			const padding = 'x'.repeat(20 * 1024);
			emulator.faults.editAnswerNext({
				method: 'GET',
				path: '/files',
				count: 100_000,
				edit: () => ({
					files: Array.from({ length: 100 }, () => ({ fileId: randomUUID(), fileName: 'big.pdf', status: 'processed', note: padding })),
				}),
			});
		},
		bound: 'Max List Size 128 MB (the answers of all pages together)',
	},
	uploadCase(
		'storage reads the PUT at 1 KB/s and never answers (Request Timeout 10 s, Max Retry Wait 5 s)',
		'error',
		({ emulator }) => emulator.faults.trickleNext({ host: 'storage', method: 'PUT', direction: 'request', bytesPerSecond: 1024, count: 100 }),
		{
			parameters: { options: { pollInterval: 0.5, requestTimeout: 10, maxRateLimitWait: 5 } },
			input: async (context) => await context.documents(1, { bytes: 512 * 1024 }),
			binaryDataMode: 'filesystem',
			bound: 'first attempt 10 s + Max Retry Wait 5 s (repeated attempts charged)',
		},
	),
];
