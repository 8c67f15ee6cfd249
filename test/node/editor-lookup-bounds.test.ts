/**
 * A person waits on the editor's lookups (the file list, the file types, the field mapper): they
 * run on their own short bounds (EDITOR_LIMITS), not on the request defaults of the node's runs,
 * so the editor answers within EDITOR_LIMITS.answerWithinMs whatever the service does: never
 * answering, trickling, a 429 asking for minutes, 503 after 503, pages that each take long.
 * Evidence is the policy the lookup ran under, the requests the emulator saw and the words of the
 * error, never elapsed time. The real n8n's REST call: test/e2e/editor-lookup-bounds.test.ts.
 */
import * as path from 'node:path';

import { addFiles } from '../../dev/emulator/bulk-files';
import { REPO_ROOT, listSearch, loadOptions, resourceMapping } from '../../dev/harness';
import { EDITOR_LIMITS, WAIT_LIMITS } from '../../nodes/shared/limits';
import type { RequestPolicy } from '../../nodes/shared/run/policy';
import { seedFile } from './file-operations-support';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
const clock = useFakeWaitClock();

const FILE_LIST = { type: 'documentExtraction', method: 'searchFiles', parameters: { resource: 'file', operation: 'getValues' } };

/** The error a lookup threw (the editor shows its message), or a failure when it answered. */
async function failure(lookup: Promise<unknown>): Promise<Error> {
	try {
		await lookup;
	} catch (error) {
		return error as Error;
	}
	throw new Error('the lookup answered');
}

describe("an editor lookup's policy", () => {
	/** The built request path's retry loop, which every API call of the package goes through. */
	const retry = async () => (await import(path.join(REPO_ROOT, 'dist/nodes/shared/transport/retry.js'))) as { withRetries: (options: { policy: RequestPolicy }) => unknown };

	it('has the bounds of EDITOR_LIMITS, within about 20 s, not the request defaults of a run', async () => {
		await seedFile(emulator);
		const spy = jest.spyOn(await retry(), 'withRetries');
		const before = clock.now();
		let policies: RequestPolicy[] = [];

		try {
			await listSearch({ ...FILE_LIST, credentials: credentialsFor(emulator) });
			await resourceMapping({
				type: 'documentExtraction',
				typeVersion: 2,
				method: 'getMappingFields',
				parameters: { resource: 'file', operation: 'updateValues', fieldsFrom: 'file', fileId: { __rl: true, mode: 'id', value: [...emulator.state.files.keys()][0] } },
				credentials: credentialsFor(emulator),
			});
			policies = spy.mock.calls.map(([options]) => options.policy);
		} finally {
			spy.mockRestore();
		}

		expect(policies.length).toBeGreaterThanOrEqual(2);
		for (const policy of policies) {
			expect(policy.requestTimeoutMs).toBe(EDITOR_LIMITS.requestTimeoutMs);
			expect(policy.budget.limitMs).toBe(EDITOR_LIMITS.maxRetryWaitMs);
			expect(policy.deadline?.at).toBeGreaterThanOrEqual(before + EDITOR_LIMITS.answerWithinMs);
			expect(policy.deadline?.at).toBeLessThanOrEqual(clock.now() + EDITOR_LIMITS.answerWithinMs);
		}
		// Shorter than a run's defaults, and one answer plus the retries fit in the lookup's time.
		expect(EDITOR_LIMITS.requestTimeoutMs).toBeLessThan(WAIT_LIMITS.defaultRequestTimeoutSeconds * 1000);
		expect(EDITOR_LIMITS.requestTimeoutMs + EDITOR_LIMITS.maxRetryWaitMs).toBeLessThanOrEqual(EDITOR_LIMITS.answerWithinMs);
		expect(EDITOR_LIMITS.answerWithinMs).toBeLessThanOrEqual(20_000);
	});
});

describe('whatever the service does, a lookup ends within its bounds and says which one ended it', () => {
	it('never answering (the file list) and trickling (the file types): two attempts each, the error names the time a lookup gives one answer', async () => {
		emulator.faults.hangNext({ method: 'GET', path: '/files', count: 10 });
		emulator.faults.trickleNext({ host: 'api', method: 'GET', path: '/file-type', bytesPerSecond: 10, chunkBytes: 1, count: 10 });

		// Real time: each first attempt ends at the lookup's Request Timeout, the second at what its retry wait has left.
		const [files, fileTypes] = await Promise.all([
			failure(listSearch({ ...FILE_LIST, credentials: credentialsFor(emulator) })),
			failure(loadOptions({ type: 'documentExtraction', method: 'getFileTypes', parameters: FILE_LIST.parameters, credentials: credentialsFor(emulator) })),
		]);

		for (const error of [files, fileTypes]) {
			// The second attempt's time: what the lookup's retry wait had left (at most its Request Timeout).
			expect(error.message).toMatch(/no answer within [1-5] s \(the time an editor lookup gives one answer\) \(2 attempts\)/);
			expect(error.message).toContain(`(An editor lookup's retry wait is ${EDITOR_LIMITS.maxRetryWaitMs / 1000} s;`);
			expect(error.message).not.toContain('Request Timeout option');
		}
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(2);
		expect(requestsTo(emulator, 'api', 'GET', /\/file-type$/)).toHaveLength(2);
	}, 60_000);

	it('a 429 asking for two minutes: one request, and the error names the retry wait of a lookup', async () => {
		emulator.faults.failNext({ method: 'GET', path: '/files', status: 429, retryAfter: 120, count: 5 });

		const error = await failure(listSearch({ ...FILE_LIST, credentials: credentialsFor(emulator) }));

		expect(error.message).toContain(
			`The API asked to wait 120 s, more than this lookup may still wait (An editor lookup's retry wait is ${EDITOR_LIMITS.maxRetryWaitMs / 1000} s;`,
		);
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('503 after 503: the retries of a run, their pauses within the retry wait of a lookup', async () => {
		emulator.faults.failNext({ method: 'GET', path: '/file-type', status: 503, count: 20 });

		const error = await failure(loadOptions({ type: 'documentExtraction', method: 'getFileTypes', parameters: FILE_LIST.parameters, credentials: credentialsFor(emulator) }));

		expect(error.message).toMatch(/\(HTTP 503[^)]*\)/);
		expect(error.message).toContain(`Gave up after ${WAIT_LIMITS.maxFailureRetries + 1} attempts`);
		expect(requestsTo(emulator, 'api', 'GET', /\/file-type$/)).toHaveLength(WAIT_LIMITS.maxFailureRetries + 1);
		expect(clock.sleptMs()).toBeLessThanOrEqual(EDITOR_LIMITS.maxRetryWaitMs);
	});

	it('a search whose pages each take 6 s: no request starts once the lookup\'s time is up, and the error says so', async () => {
		addFiles(emulator.state, 1000, { createdAtMs: (index) => Date.parse('2026-03-01T00:00:00Z') + index * 1000 });
		// Each page's answer costs 6 s of the clock the package measures its deadlines on.
		const pageMs = 6_000;
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: '/files',
			count: 20,
			edit: (body) => {
				clock.advance(pageMs);
				return body;
			},
		});

		// A filter nothing matches: the search would read 10 pages in this call.
		const error = await failure(listSearch({ ...FILE_LIST, filter: 'no file is called this', credentials: credentialsFor(emulator) }));

		expect(error.message).toContain(`An editor lookup ends within ${EDITOR_LIMITS.answerWithinMs / 1000} s`);
		// Pages start at 0, 6, 12 and 18 s; at 24 s the lookup's time is up.
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(Math.ceil(EDITOR_LIMITS.answerWithinMs / pageMs));
	});
});
