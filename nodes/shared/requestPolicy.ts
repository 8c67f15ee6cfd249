import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { ANSWER_LIMITS, EDITOR_LIMITS, SPEED_LIMITS, WAIT_LIMITS } from './limits';
import type { NumberRange } from './parameters';
import { numberExpected, readParameter, requireNumber } from './parameters';
import {
	LOW_SPEED_TIME_PARAMETER,
	MAX_ANSWER_PARAMETER,
	MAX_LIST_PARAMETER,
	MAX_WAIT_PARAMETER,
	MIN_SPEED_PARAMETER,
	REQUEST_TIMEOUT_PARAMETER,
} from './requestOptions';
import type { ApiContext, ItemPolicy, RequestLimits, RequestPolicy } from './run';
import { cancelSignalOf, requestPolicy, waitClock } from './run';

/**
 * Where a run starts, its request policy is built: the router for each item of the action node
 * (itemPolicy), the trigger for each poll (pollPolicy), the Callback Trigger for each call
 * (callbackPolicy), an editor method for each lookup (editorPolicy). The options are read and checked here, once; the API layer and the request path
 * below only apply the policy they are handed.
 */

type OptionsContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

/**
 * One option, checked by the parameters module: a number (or text holding one, as an expression
 * may give) within its range. Anything else is refused, naming the option and the item, instead
 * of being replaced by a default behind the user's back.
 */
function readLimit(
	context: OptionsContext,
	itemIndex: number | undefined,
	parameter: string,
	label: { displayName: string; unit: string },
	fallback: number,
	range: NumberRange,
): number {
	const value: unknown = readParameter(context, parameter, itemIndex, fallback);
	return requireNumber(context, itemIndex, label.displayName, value, range, numberExpected(range, label.unit));
}

/** The options' values, in the units the user sets them in, as the request path's limits. */
function limitsOf(values: {
	maxWaitSeconds: number;
	requestTimeoutSeconds: number;
	maxAnswerMb: number;
	maxListMb: number;
	minSpeedKbps: number;
	lowSpeedSeconds: number;
}): RequestLimits {
	return {
		maxWaitMs: values.maxWaitSeconds * 1000,
		requestTimeoutMs: values.requestTimeoutSeconds * 1000,
		maxAnswerBytes: Math.floor(values.maxAnswerMb * 1024 * 1024),
		maxListBytes: Math.floor(values.maxListMb * 1024 * 1024),
		minBytesPerSecond: values.minSpeedKbps * 1024,
		lowSpeedWindowMs: values.lowSpeedSeconds * 1000,
	};
}

/** Reads and checks the bounds in the options (defaults where an operation has no such option). */
function readRequestLimits(context: OptionsContext, itemIndex: number | undefined): RequestLimits {
	const seconds = (displayName: string) => ({ displayName, unit: 'seconds' });
	const maxWaitSeconds = readLimit(context, itemIndex, MAX_WAIT_PARAMETER, seconds('Max Retry Wait (Seconds)'), WAIT_LIMITS.defaultMaxWaitSeconds, {
		min: 0,
		max: WAIT_LIMITS.maxMaxWaitSeconds,
	});
	const requestTimeoutSeconds = readLimit(
		context,
		itemIndex,
		REQUEST_TIMEOUT_PARAMETER,
		seconds('Request Timeout (Seconds)'),
		WAIT_LIMITS.defaultRequestTimeoutSeconds,
		{ min: WAIT_LIMITS.minRequestTimeoutSeconds },
	);
	const maxAnswerMb = readLimit(
		context,
		itemIndex,
		MAX_ANSWER_PARAMETER,
		{ displayName: 'Max Answer Size (MB)', unit: 'MB' },
		ANSWER_LIMITS.defaultMaxAnswerMb,
		{ min: ANSWER_LIMITS.minMaxAnswerMb, max: ANSWER_LIMITS.maxMaxAnswerMb },
	);
	const maxListMb = readLimit(
		context,
		itemIndex,
		MAX_LIST_PARAMETER,
		{ displayName: 'Max List Size (MB)', unit: 'MB' },
		ANSWER_LIMITS.defaultMaxListMb,
		{ min: ANSWER_LIMITS.minMaxListMb, max: ANSWER_LIMITS.maxMaxListMb },
	);
	const minSpeedKbps = readLimit(
		context,
		itemIndex,
		MIN_SPEED_PARAMETER,
		{ displayName: 'Min Transfer Speed (KB/s)', unit: 'KB/s' },
		SPEED_LIMITS.defaultMinSpeedKbps,
		{ min: SPEED_LIMITS.minMinSpeedKbps },
	);
	const lowSpeedSeconds = readLimit(
		context,
		itemIndex,
		LOW_SPEED_TIME_PARAMETER,
		seconds('Low Speed Time (Seconds)'),
		SPEED_LIMITS.defaultLowSpeedSeconds,
		{ min: SPEED_LIMITS.minLowSpeedSeconds, max: SPEED_LIMITS.maxLowSpeedSeconds },
	);
	return limitsOf({ maxWaitSeconds, requestTimeoutSeconds, maxAnswerMb, maxListMb, minSpeedKbps, lowSpeedSeconds });
}

/** The policy of one input item of the action node, from its options; its budget is the item's. */
export function itemPolicy(context: IExecuteFunctions, itemIndex: number): ItemPolicy {
	return requestPolicy(readRequestLimits(context, itemIndex), {
		itemIndex,
		waitDeadline: undefined,
		cancelSignal: cancelSignalOf(context),
	});
}

/** The policy of one poll of the trigger, from its options: no retry wait ends past `waitDeadlineAt`. */
export function pollPolicy(context: IPollFunctions, waitDeadlineAt: number): RequestPolicy {
	return requestPolicy(readRequestLimits(context, undefined), {
		itemIndex: undefined,
		waitDeadline: { at: waitDeadlineAt, note: 'Waiting that long would go past the time n8n gives this poll' },
		cancelSignal: cancelSignalOf(context),
	});
}

/**
 * The policy of an item of a run that waited for callbacks (Upload), from the limits its options
 * gave when it was uploaded (kept with the waiting execution, as webhook() cannot read an item's
 * options): for the results after the wait, and, within `cap`, for a callback's check, which must
 * be answered before the service gives up.
 */
export function storedItemPolicy(
	context: ApiContext,
	limits: RequestLimits,
	itemIndex: number,
	cap?: { requestTimeoutMs: number; maxWaitMs: number },
): ItemPolicy {
	const capped = cap
		? { ...limits, requestTimeoutMs: Math.min(limits.requestTimeoutMs, cap.requestTimeoutMs), maxWaitMs: Math.min(limits.maxWaitMs, cap.maxWaitMs) }
		: limits;
	return requestPolicy(capped, { itemIndex, waitDeadline: undefined, cancelSignal: cancelSignalOf(context) });
}

/** The request limits of the defaults (an item whose stored limits are missing). */
export function defaultRequestLimits(): RequestLimits {
	return limitsOf({
		maxWaitSeconds: WAIT_LIMITS.defaultMaxWaitSeconds,
		requestTimeoutSeconds: WAIT_LIMITS.defaultRequestTimeoutSeconds,
		maxAnswerMb: ANSWER_LIMITS.defaultMaxAnswerMb,
		maxListMb: ANSWER_LIMITS.defaultMaxListMb,
		minSpeedKbps: SPEED_LIMITS.defaultMinSpeedKbps,
		lowSpeedSeconds: SPEED_LIMITS.defaultLowSpeedSeconds,
	});
}

/**
 * The policies of one call of the Callback Trigger, from its options. `check`: the first request a
 * call causes (the status of the upload it names), made for a caller nobody has authenticated:
 * one attempt, never repeated (Max Retry Wait 0: a failure is answered 503 and the service calls
 * again), so that no caller makes the node send more than one request. `confirmed`: the requests
 * made once the API has confirmed the upload (its files' records, values), with the options'
 * retries. The check that must end before the call is answered passes its own deadline with each
 * request (the API layer's `deadline`).
 */
export function callbackPolicy(context: IWebhookFunctions): { check: RequestPolicy; confirmed: RequestPolicy } {
	const limits = readRequestLimits(context, undefined);
	const scope = { itemIndex: undefined, waitDeadline: undefined, cancelSignal: undefined };
	return { check: requestPolicy({ ...limits, maxWaitMs: 0 }, scope), confirmed: requestPolicy(limits, scope) };
}

/**
 * The policy of one editor lookup (list search, load options, the field mapper): its own short
 * bounds (EDITOR_LIMITS), read from no parameter (the options shown belong to the operation being
 * edited, not to the lookup), because a person waits for the answer: one answer within
 * requestTimeoutMs, the lookup's waits and repeated attempts within maxRetryWaitMs, and the whole
 * lookup, every page and request of it, within answerWithinMs, whatever the service does.
 */
export function editorPolicy(context: ILoadOptionsFunctions): RequestPolicy {
	const { requestTimeoutMs, maxRetryWaitMs, answerWithinMs } = EDITOR_LIMITS;
	const limits: RequestLimits = { ...defaultRequestLimits(), requestTimeoutMs, maxWaitMs: maxRetryWaitMs };
	const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
	return requestPolicy(limits, {
		itemIndex: undefined,
		waitDeadline: undefined,
		cancelSignal: cancelSignalOf(context),
		lookup: {
			deadline: {
				at: waitClock.now() + answerWithinMs,
				note: `An editor lookup ends within ${seconds(answerWithinMs)}, and this one's time is up; try again, or type the value (an ID) instead`,
			},
			names: { requestTimeout: 'the time an editor lookup gives one answer' },
			budgetName: "An editor lookup's retry wait",
			holder: 'this lookup',
		},
	});
}
