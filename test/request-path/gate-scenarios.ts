/**
 * Generated scenarios for the key's 429 gate (rate-gate-properties.test.ts) and the runner that
 * holds one to the gate's invariants, for the property test and its named regressions alike.
 * The real retry policy (withRetries) and gate (RateLimitGate) run on a virtual clock on which
 * concurrent waits overlap as in real time; the fake API answers each attempt from the scenario's
 * script: 200, or 429 with a Retry-After in any shape.
 */
import fc from 'fast-check';
import type { INode } from 'n8n-workflow';

import { WAIT_LIMITS } from '../../nodes/shared/limits';
import type { RequestPolicy } from '../../nodes/shared/run/policy';
import { OPTION_NAMES } from '../../nodes/shared/run/policy';
import { WaitBudget } from '../../nodes/shared/run/waitBudget';
import type { ApiContext } from '../../nodes/shared/run/context';
import { RateLimitGate, forgetRateLimits } from '../../nodes/shared/transport/rateGate';
import type { AttemptResult } from '../../nodes/shared/transport/retry';
import { retryAfterMs } from '../../nodes/shared/transport/failures';
import { withRetries } from '../../nodes/shared/transport/retry';
import type { RetryAfterShape } from './retry-after';
import { documentedPauseMs, retryAfterShapes } from './retry-after';
import { VirtualClock } from './virtual-clock';

const SPACING = WAIT_LIMITS.rateLimitResumeSpacingMs;
const START = Date.UTC(2026, 0, 1);
const NODE = { id: 'n', name: 'Document Extraction', type: 'documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

export interface ActorSpec {
	arriveAt: number;
	budgetMs: number;
	calls: number;
	stopAt?: number;
}

export type AnswerSpec = { kind: 'ok' } | { kind: '429'; retryAfter: RetryAfterShape };

export interface GateScenario {
	actors: ActorSpec[];
	/** The answers, in the order the requests reach the API; 200 once it has run out. */
	answers: AnswerSpec[];
}

const actor: fc.Arbitrary<ActorSpec> = fc.record(
	{
		arriveAt: fc.integer({ min: 0, max: 8000 }),
		budgetMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 5000, max: 90_000 })),
		calls: fc.integer({ min: 1, max: 3 }),
		stopAt: fc.integer({ min: 0, max: 20_000 }),
	},
	{ requiredKeys: ['arriveAt', 'budgetMs', 'calls'] },
);

const answer: fc.Arbitrary<AnswerSpec> = fc.oneof(
	{ weight: 2, arbitrary: fc.constant<AnswerSpec>({ kind: 'ok' }) },
	{ weight: 3, arbitrary: retryAfterShapes.map<AnswerSpec>((retryAfter) => ({ kind: '429', retryAfter })) },
);

export const gateScenarios: fc.Arbitrary<GateScenario> = fc.record({
	actors: fc.array(actor, { minLength: 1, maxLength: 14 }),
	answers: fc.array(answer, { maxLength: 30 }),
});

interface Pause {
	from: number;
	until: number;
}

/** Runs a scenario through the real retry policy and gate; throws at the first broken invariant. */
export async function runGateScenario(scenario: GateScenario): Promise<{ sent: number; refused: number; stopped: number }> {
	forgetRateLimits();
	const gate = new RateLimitGate(`generated#${Math.random()}`);
	const violations: string[] = [];
	const pauses: Pause[] = [];
	// The end of the last pause announced so far: the oracle's, not the gate's own record.
	const pauseEnd = () => pauses.reduce((end, pause) => Math.max(end, pause.until), 0);
	const clock = new VirtualClock(START, (ms, now) => {
		// Invariant 2: every wait here is at the gate (the API answers only 200 and 429): at most the
		// pause left plus one spacing for each request really waiting (those asleep and this one).
		const waiting = clock.pendingSleeps + 1;
		const bound = Math.max(0, pauseEnd() - now) + SPACING * waiting;
		if (ms > bound) violations.push(`a gate wait of ${ms} ms at ${now - START} with ${waiting} waiting; bound ${bound} ms`);
	}).install();
	let next = 0;
	let sent = 0;
	let refused = 0;
	let stopped = 0;
	try {
		scenario.actors.forEach((spec, index) => {
			const stop = new AbortController();
			const context = { getNode: () => NODE, getExecutionCancelSignal: () => stop.signal } as unknown as ApiContext;
			const budget = new WaitBudget(spec.budgetMs);
			const policy: RequestPolicy = {
				itemIndex: index,
				requestTimeoutMs: 60_000,
				maxAnswerBytes: 1024,
				maxListBytes: 1024,
				lowSpeed: { minBytesPerSecond: 1024, windowMs: 30_000 },
				budget,
				waitDeadline: undefined,
				deadline: undefined,
				names: OPTION_NAMES,
				cancelSignal: stop.signal,
			};
			let sleptBefore = 0;
			if (spec.stopAt !== undefined) clock.at(START + spec.stopAt, () => stop.abort());
			clock.at(START + spec.arriveAt, () => {
				void (async () => {
					for (let call = 0; call < spec.calls; call++) {
						let attempts = 0;
						let rateLimits = 0;
						const received: Pause[] = [];
						const attempt = async (): Promise<AttemptResult<string>> => {
							attempts += 1;
							const now = clock.current;
							// Invariant 4: nothing is sent after a stop.
							if (stop.signal.aborted) violations.push(`actor ${index} sent after its stop`);
							// Invariant 1: nothing is sent strictly inside an announced pause.
							const inside = pauses.find((pause) => pause.from < now && now < pause.until);
							if (inside) violations.push(`actor ${index} sent at ${now - START}, inside the pause ${inside.from - START}..${inside.until - START}`);
							sent += 1;
							const spec429 = scenario.answers[next++];
							if (!spec429 || spec429.kind === 'ok') return { ok: true, value: 'ok' };
							rateLimits += 1;
							const headers = spec429.retryAfter.header === undefined ? {} : { 'retry-after': spec429.retryAfter.header };
							const body = 'body' in spec429.retryAfter ? { retryAfter: spec429.retryAfter.body } : {};
							const asked = retryAfterMs(body as never, headers);
							const pause = { from: now, until: now + documentedPauseMs(asked, rateLimits, true) };
							pauses.push(pause);
							received.push(pause);
							return { ok: false, failure: { kind: 'rate-limited', retryAfterMs: asked, giveUp: (note) => new Error(`429 ${note ?? ''}`) } };
						};
						try {
							await withRetries({ context, policy, gate, gateRefusal: (ms) => new Error(`refused at the gate (${ms} ms)`) }, attempt);
						} catch (error) {
							const message = (error as Error).message;
							if (/stopped/.test(message)) stopped += 1;
							else refused += 1;
						}
						// Invariant 1, from the gate's side: each 429 this call received closes the gate until its pause ends.
						for (const pause of received) {
							const left = gate.waitMs();
							if (clock.current < pause.until && left < pause.until - clock.current) {
								violations.push(`a 429 asking until ${pause.until - START} left the gate open at ${clock.current - START} (wait ${left} ms)`);
							}
						}
						// Invariant 3: within the documented bound.
						if (attempts > 1 + Math.floor(spec.budgetMs / WAIT_LIMITS.rateLimitFloorMs)) {
							violations.push(`actor ${index} made ${attempts} attempts with Max Retry Wait ${spec.budgetMs} ms`);
						}
						if (stop.signal.aborted) break;
					}
					sleptBefore = budget.spentMs - budget.attemptsMs;
					if (sleptBefore > spec.budgetMs) violations.push(`actor ${index} waited ${sleptBefore} ms with Max Retry Wait ${spec.budgetMs} ms`);
				})();
			});
		});
		await clock.run();
		// Invariants 2 and 5: nobody is left holding a place, so a new request waits at most the pause left and one spacing.
		const probe = gate.waitMs();
		const left = Math.max(0, pauseEnd() - clock.current);
		if (probe > left + SPACING) violations.push(`a new request would wait ${probe} ms after every request ended, the pause left being ${left} ms`);
	} finally {
		clock.restore();
		forgetRateLimits();
	}
	if (violations.length) throw new Error(violations.slice(0, 5).join('\n'));
	return { sent, refused, stopped };
}

