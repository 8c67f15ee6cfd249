import type { INodeProperties } from 'n8n-workflow';

import { ANSWER_LIMITS, SPEED_LIMITS, WAIT_LIMITS } from './limits';

/**
 * The options of the request path (nodes/shared/limits/) as both nodes offer
 * them: every Options collection holds them, and requestPolicy.ts reads them by name into the
 * request policy of an item or a poll.
 */

/** The collection every operation's options are in (requestPolicy.ts reads `options.<name>`). */
const OPTIONS = 'options';

/** Where each option is read, inside the Options collection. */
export const MAX_WAIT_PARAMETER = 'options.maxRateLimitWait';
export const REQUEST_TIMEOUT_PARAMETER = 'options.requestTimeout';
export const MAX_ANSWER_PARAMETER = 'options.maxAnswerSize';
export const MAX_LIST_PARAMETER = 'options.maxListSize';
export const MIN_SPEED_PARAMETER = 'options.minTransferSpeed';
export const LOW_SPEED_TIME_PARAMETER = 'options.lowSpeedTime';

/** The name of an option in the Options collection, from the path requestPolicy.ts reads it at. */
function optionName(parameterPath: string): string {
	return parameterPath.slice(`${OPTIONS}.`.length);
}

// Defaults as plain names: n8n's node lint reads a parameter's default only from a literal or a name.
const DEFAULT_MAX_WAIT_SECONDS = WAIT_LIMITS.defaultMaxWaitSeconds;
const DEFAULT_REQUEST_TIMEOUT_SECONDS = WAIT_LIMITS.defaultRequestTimeoutSeconds;
const DEFAULT_MAX_ANSWER_MB = ANSWER_LIMITS.defaultMaxAnswerMb;
const DEFAULT_MAX_LIST_MB = ANSWER_LIMITS.defaultMaxListMb;
const DEFAULT_MIN_SPEED_KBPS = SPEED_LIMITS.defaultMinSpeedKbps;
const MIN_MIN_SPEED_KBPS = SPEED_LIMITS.minMinSpeedKbps;
const DEFAULT_LOW_SPEED_SECONDS = SPEED_LIMITS.defaultLowSpeedSeconds;

/**
 * Goes into every operation's Options collection; requestPolicy.ts reads it at MAX_WAIT_PARAMETER.
 * Its name stays `maxRateLimitWait` so that saved workflows keep their value.
 */
const maxRetryWaitOption: INodeProperties = {
	displayName: 'Max Retry Wait (Seconds)',
	name: optionName(MAX_WAIT_PARAMETER),
	type: 'number',
	typeOptions: { minValue: 0, maxValue: WAIT_LIMITS.maxMaxWaitSeconds },
	default: DEFAULT_MAX_WAIT_SECONDS,
	description:
		'How long one item may spend in total waiting and trying its requests again: after "too many requests" (HTTP 429, the node waits as long as the API asks, at least 1 second, and holds every request made with the same API key in this n8n, other executions too) and after server or network failures (0.5, 1, 2 … seconds). When a wait would go past it, the item fails and says why. 0 never waits: the first 429 or failure fails the item.',
};

/** Goes into every operation's Options collection; requestPolicy.ts reads it at REQUEST_TIMEOUT_PARAMETER. */
const requestTimeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: optionName(REQUEST_TIMEOUT_PARAMETER),
	type: 'number',
	typeOptions: { minValue: WAIT_LIMITS.minRequestTimeoutSeconds },
	default: DEFAULT_REQUEST_TIMEOUT_SECONDS,
	description:
		'How long one request to the API may take, from sending it to the last byte of its answer, and how long a file upload or download may go without moving a byte, before it is abandoned (and tried again when that is safe). All the attempts and waits of one request end within Request Timeout + Max Retry Wait.',
};

/** Goes into every operation's Options collection; requestPolicy.ts reads it at MAX_ANSWER_PARAMETER. */
const maxAnswerSizeOption: INodeProperties = {
	displayName: 'Max Answer Size (MB)',
	name: optionName(MAX_ANSWER_PARAMETER),
	type: 'number',
	typeOptions: { minValue: ANSWER_LIMITS.minMaxAnswerMb, maxValue: ANSWER_LIMITS.maxMaxAnswerMb },
	default: DEFAULT_MAX_ANSWER_MB,
	description:
		'The largest answer from the API that is read into memory (and the largest download whose size the service does not announce). A larger answer fails the item, saying so, before the rest of it is read. Raise it only for documents with very large tables.',
};

/** Goes into every operation's Options collection; requestPolicy.ts reads it at MAX_LIST_PARAMETER. */
const maxListSizeOption: INodeProperties = {
	displayName: 'Max List Size (MB)',
	name: optionName(MAX_LIST_PARAMETER),
	type: 'number',
	typeOptions: { minValue: ANSWER_LIMITS.minMaxListMb, maxValue: ANSWER_LIMITS.maxMaxListMb },
	default: DEFAULT_MAX_LIST_MB,
	description:
		'The most one list read page by page may hold in memory: the answers of all its pages together (Return All of files, file types or query rows; every page of a document\'s values). Past it the item fails, saying so, and the page that would pass it is not read whole. Set a Limit or narrow the list rather than raising it far.',
};

/**
 * Options of the operations that move a document's bytes to or from storage (Upload, Download):
 * the low-speed limit of a transfer, as curl's --speed-limit and --speed-time.
 */
export const transferSpeedOptions: INodeProperties[] = [
	{
		displayName: 'Min Transfer Speed (KB/s)',
		name: optionName(MIN_SPEED_PARAMETER),
		type: 'number',
		typeOptions: { minValue: MIN_MIN_SPEED_KBPS, numberPrecision: 1 },
		default: DEFAULT_MIN_SPEED_KBPS,
		description:
			'A file upload or download that moves slower than this for "Low Speed Time" is abandoned (and tried again while Max Retry Wait allows), then fails naming the speed it saw',
	},
	{
		displayName: 'Low Speed Time (Seconds)',
		name: optionName(LOW_SPEED_TIME_PARAMETER),
		type: 'number',
		typeOptions: { minValue: SPEED_LIMITS.minLowSpeedSeconds, maxValue: SPEED_LIMITS.maxLowSpeedSeconds },
		default: DEFAULT_LOW_SPEED_SECONDS,
		description: 'How long a transfer may stay below "Min Transfer Speed" before it is abandoned',
	},
];

/** An operation's "Options" collection: its own options plus the request options, by name. */
export function optionsCollection(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: OPTIONS,
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...extra, maxRetryWaitOption, requestTimeoutOption, maxAnswerSizeOption, maxListSizeOption].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}
