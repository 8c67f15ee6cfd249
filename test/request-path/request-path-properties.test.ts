/**
 * The whole request path, through the n8n engine (the package as n8n loads it, n8n-core's
 * WorkflowExecute and HTTP helpers), against generated hostile services on 127.0.0.1
 * (hostile-server.ts): an API host, a storage host and a trap host whose answers a generator
 * scripts (any status, Retry-After in every shape, Content-Length lies, gzip real, bomb or lie,
 * bodies that echo the key, huge bodies, chunks, stalls, resets; redirects to the trap; presigned
 * URLs to storage, the trap, a public host or ftp). Operations: Get Subscription (one GET), Get
 * Many with Return All (pages, with or without a total, big records), Upload (the upload request
 * and its PUT). The package's waits run on the controlled clock (recorded, not spent). Invariants:
 *  - every call ends within its documented bound: the waits it asked for add up to at most Max
 *    Retry Wait, and its attempts to at most 1 + 3 failure retries + Max Retry Wait / 1 s (per
 *    page of a list);
 *  - memory held stays under the user's caps: a huge answer is not read past Max Answer Size or
 *    Max List Size (the socket took far less than the answer), and never comes back as a success;
 *  - the key never leaves the API host: every request carrying it went to the API host, under its
 *    path prefix; nothing reached the trap host with it, no redirect was followed;
 *  - the key appears in no output item, error or log line, whatever the answers echoed.
 * Fixed seed in `npm test` (120 runs); FUZZ_RUNS / 10 of them under `npm run fuzz`.
 */
import fc from 'fast-check';
import type { INodeExecutionData } from 'n8n-workflow';

import { createBinaryItem, ensureBuilt, installFakeWaitClock, runNode } from '../../dev/harness';
import { LONG_RUN, fuzzParameters } from '../fuzz/runs';
import type { AnswerSpec, ServiceShape } from './hostile-server';
import { HostileService, answerSpecs, serviceShapes } from './hostile-server';

type Operation = 'getSubscription' | 'getMany' | 'upload';

interface Scenario {
	operation: Operation;
	maxWaitSeconds: number;
	maxListMb: number;
	apiKey: string;
	script: AnswerSpec[];
	storageScript: AnswerSpec[];
	shape: ServiceShape;
}

const scenarios: fc.Arbitrary<Scenario> = fc.record({
	operation: fc.constantFrom<Operation>('getSubscription', 'getMany', 'upload'),
	maxWaitSeconds: fc.constantFrom(0, 1, 2.5, 10),
	maxListMb: fc.constantFrom(1, 2, 3),
	apiKey: fc.stringMatching(/^[a-z0-9]{24}$/).map((suffix) => `dex_fuzz_${suffix}`),
	script: fc.array(answerSpecs, { maxLength: 6 }),
	storageScript: fc.array(answerSpecs, { maxLength: 4 }),
	shape: serviceShapes,
});

const FAILURE_RETRIES = 3;
/** What a socket may hold beyond what the client read (kernel buffers on loopback), generously; a huge answer is 48 MB. */
const SOCKET_SLACK = 16 * 1024 * 1024;

/** What the runs reached, so that a generator that stopped reaching a path is seen (FUZZ_STATS=1 prints it). */
const reached = { runs: 0, succeeded: 0, failed: 0, rateLimited: 0, huge: 0, storagePuts: 0, trapPuts: 0, redirects: 0, keyEchoed: 0 };

async function runScenario(scenario: Scenario): Promise<void> {
	const service = await new HostileService(scenario.apiKey, scenario.script, scenario.storageScript, scenario.shape).start();
	const clock = installFakeWaitClock();
	try {
		const options = { requestTimeout: 1, maxRateLimitWait: scenario.maxWaitSeconds, maxAnswerSize: 1, maxListSize: scenario.maxListMb };
		let inputItems: INodeExecutionData[] | undefined;
		let parameters: Record<string, unknown>;
		if (scenario.operation === 'getSubscription') parameters = { resource: 'workspace', operation: 'getSubscription', options };
		else if (scenario.operation === 'getMany') parameters = { resource: 'file', operation: 'getMany', returnAll: true, options };
		else {
			parameters = { resource: 'file', operation: 'upload', waitForCompletion: false, options };
			inputItems = [await createBinaryItem({ buffer: Buffer.from('Total Amount: 12\n'), fileName: 'fuzz.txt', mimeType: 'text/plain' })];
		}
		const result = await runNode({
			type: 'documentExtraction',
			parameters: parameters as never,
			credentials: { documentExtractionApi: { apiKey: scenario.apiKey, instance: 'default', baseUrl: service.apiUrl } },
			inputItems,
		});

		const key = scenario.apiKey;
		const api = service.log.filter((entry) => entry.host === 'api');
		const elsewhere = service.log.filter((entry) => entry.host !== 'api');
		const waitedMs = clock.sleptMs();
		const answered = scenario.script.slice(0, api.length);
		reached.runs += 1;
		reached[result.error ? 'failed' : 'succeeded'] += 1;
		reached.rateLimited += answered.filter((spec) => spec.status === 429).length;
		reached.huge += api.filter((entry) => entry.hugeBytesWritten !== undefined).length;
		reached.storagePuts += service.log.filter((entry) => entry.host === 'storage').length;
		reached.trapPuts += service.log.filter((entry) => entry.host === 'trap').length;
		reached.redirects += answered.filter((spec) => spec.status >= 300 && spec.status < 400).length;
		reached.keyEchoed += answered.filter((spec) => spec.echo !== 'none').length;
		const retriesAllowed = Math.floor(scenario.maxWaitSeconds);

		// Bounded: the waits within Max Retry Wait; the attempts within the policy.
		expect(waitedMs).toBeLessThanOrEqual(scenario.maxWaitSeconds * 1000);
		const calls = scenario.operation === 'getMany' ? scenario.shape.listPages + 1 : 1;
		const apiAttempts = scenario.operation === 'upload' ? api.filter((entry) => entry.method === 'POST').length : api.length;
		expect(apiAttempts).toBeLessThanOrEqual(calls * (1 + FAILURE_RETRIES) + retriesAllowed);
		expect(elsewhere.filter((entry) => entry.method === 'PUT').length).toBeLessThanOrEqual(1 + FAILURE_RETRIES + retriesAllowed);

		// The key goes to the API host only, under its path prefix, and no redirect is followed.
		for (const entry of api) expect(entry.url.startsWith('/prod/v1/')).toBe(true);
		for (const entry of elsewhere) {
			expect(JSON.stringify(entry)).not.toContain(key);
			expect(entry.method).toBe('PUT');
		}
		// Every 3xx points to the trap's /redirected: nothing, API or storage, ever went there.
		expect(service.log.filter((entry) => entry.url.startsWith('/redirected'))).toEqual([]);

		// Memory: a huge answer was not read past the caps, and never makes a success.
		for (const entry of api) {
			if (entry.hugeBytesWritten !== undefined) expect(entry.hugeBytesWritten).toBeLessThan(1024 * 1024 + SOCKET_SLACK);
		}
		const hugeSuccess = scenario.script
			.slice(0, api.length)
			.some((spec) => spec.status >= 200 && spec.status < 300 && (spec.body === 'huge' || spec.body === 'gzip bomb') && spec.speed !== 'reset');
		if (hugeSuccess) expect(result.error ?? result.items.find((item) => item.json.error)).toBeDefined();

		// The key is shown nowhere.
		const shown = JSON.stringify([result.items, result.error, result.result.run.data, result.result.logs.map((line) => line.text)]);
		expect(shown).not.toContain(key);
		expect(shown).not.toContain(encodeURIComponent(key));
	} finally {
		clock.restore();
		await service.close();
	}
}

describe('the request path over generated hostile services', () => {
	beforeAll(async () => {
		await ensureBuilt();
	}, 600_000);

	it('bounds every call, keeps memory under the caps, and keeps the key home', async () => {
		await fc.assert(fc.asyncProperty(scenarios, runScenario), fuzzParameters(120, 1 / 10));
		if (process.env.FUZZ_STATS) console.log(reached);
		// The generator reaches the paths the invariants are about.
		for (const path of ['succeeded', 'failed', 'rateLimited', 'huge', 'storagePuts', 'trapPuts', 'redirects', 'keyEchoed'] as const) expect(reached[path]).toBeGreaterThan(0);
	}, LONG_RUN ? 6 * 3_600_000 : 300_000);
});
