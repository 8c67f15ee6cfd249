/**
 * The request path's abortSignal pin (http.ts requestOptionsFor), in the real n8n-core 2.41.1
 * engine in process; test/e2e/abort-signal-suite.ts runs the same checks in the real n8n 2.41.1 and
 * 1.123.81 applications.
 * - The canary: n8n-core's httpRequestWithAuthentication still replaces a caller's abortSignal
 *   with the execution's stop signal (the probe package of test/fixtures shows it). When it fails,
 *   n8n changed and the pin must be revisited.
 * - The behaviour the pin gives: an attempt that gets no answer ends at the Request Timeout with
 *   our message and its connection is closed by the node; a Stop still ends a request at once.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { waitForRequest } from '../../dev/emulator';
import { REPO_ROOT, runNode } from '../../dev/harness';
import {
	PROBE_NODE_TYPE,
	PROBE_PACKAGE_DIR,
	connectionEnded,
	expectClosedAtTheirTimeout,
	expectN8nReplacesTheSignal,
	type ProbeReport,
} from '../fixtures/abort-signal-probe';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

const SUBSCRIPTION = /\/subscription$/;
const N8N_CORE_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'n8n-core', 'package.json'), 'utf8')) as { version: string }).version;

describe(`canary: n8n-core ${N8N_CORE_VERSION}'s httpRequestWithAuthentication replaces the request options' abortSignal`, () => {
	it('a node\'s own abortSignal is overwritten by the execution\'s stop signal and no longer ends its request', async () => {
		emulator.faults.hangNext({ method: 'GET', path: '/subscription' });

		const { items, error } = await runNode({
			type: PROBE_NODE_TYPE,
			extraPackageDirs: [PROBE_PACKAGE_DIR],
			parameters: { url: `${emulator.apiUrl}/prod/v1/subscription`, abortAfterMs: 500, settleWithinMs: 2000 },
			credentials: credentialsFor(emulator),
		});

		expect(error).toBeUndefined();
		const [probeRequest] = requestsTo(emulator, 'api', 'GET', SUBSCRIPTION);
		expect(probeRequest?.fault).toBe('hang');
		expectN8nReplacesTheSignal(items[0].json as unknown as ProbeReport, probeRequest, `n8n-core ${N8N_CORE_VERSION}`);
	});
});

describe('the attempt\'s own abort signal is in effect (the pin in http.ts)', () => {
	it('an API that never answers: each attempt ends at Request Timeout with our message, its connection closed by the node', async () => {
		emulator.faults.hangNext({ method: 'GET', path: '/subscription', count: 4 });

		const { error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription', options: { requestTimeout: 1 } },
			credentials: credentialsFor(emulator),
		});

		expect(error?.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:\d+: no answer within 1 s \(the Request Timeout option\) \(4 attempts\)/);
		const attempts = requestsTo(emulator, 'api', 'GET', SUBSCRIPTION);
		expect(attempts.map((entry) => entry.fault)).toEqual(['hang', 'hang', 'hang', 'hang']);
		await expectClosedAtTheirTimeout(emulator, attempts, 1000);
	});

	it('Stop ends a request in flight at once and closes its connection, with Request Timeout at 600 s', async () => {
		emulator.faults.hangNext({ method: 'GET', path: '/subscription' });
		const arrived = waitForRequest(emulator, (entry) => SUBSCRIPTION.test(entry.path));

		const { result } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription', options: { requestTimeout: 600 } },
			credentials: credentialsFor(emulator),
			cancelWhen: arrived,
		});

		expect(result.status).toBe('canceled');
		const ended = await connectionEnded(emulator, await arrived, 10_000);
		expect(ended.status).toBe(0);
		expect(requestsTo(emulator, 'api', 'GET', SUBSCRIPTION)).toHaveLength(1);
	});
});
