import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { RequestLimits } from '../../../../../shared/run';

/**
 * What an execution that waits for callbacks keeps, in the node's context (n8n saves it with the
 * waiting execution, also with "save successful executions: none", and both n8n 1.x and 2.x let
 * the node's webhook() read it back: docs/dev/callback-wait.md). Written once by execute(), after
 * every upload of the run was made, and never by webhook(): nothing a call that does not resume
 * writes would be saved. One small entry per item, so that a callback reads only the header and
 * its own item.
 */

/** The run as a whole. */
export interface WaitHeader {
	/** The shape's version, so that a later version of the node can tell an older wait. */
	v: 1;
	/** The per-run secret every callback URL of the run carries (the protection where n8n's resume URL has none, n8n 1.x). */
	secret: string;
	/** Items of the run (the node's input items). */
	count: number;
	/** When the wait ends (ms since 1970): n8n's waitTill; a callback after it resumes with what is known. */
	deadline: number;
	/** The Wait Timeout, for messages. */
	timeoutMs: number;
}

/** One input item. */
export interface WaitItem {
	/** The upload the item made (absent when it failed before: see `error`). */
	uploadId?: string;
	fileName?: string;
	expectZip?: boolean;
	includeValues?: boolean;
	simplify?: boolean;
	/** The bounds of the item's requests (its options), for the checks and the results after the wait. */
	limits?: RequestLimits;
	/** Processing had ended already when the execution was parked (checked then). */
	doneAtPark?: boolean;
	/** The item failed before the wait (On Error: Continue): its error item, output as it is. */
	error?: IDataObject;
}

const HEADER_KEY = 'documentExtractionWait';
const ITEM_KEY_PREFIX = 'documentExtractionWait_';
/** Read by users after a Wait Timeout: `{{ $('<node>').context.uploadIds[$itemIndex] }}` (docs/operations-file.md). */
export const UPLOAD_IDS_KEY = 'uploadIds';

export function writeWaitState(context: IExecuteFunctions, header: WaitHeader, items: WaitItem[]): void {
	const nodeContext = context.getContext('node');
	nodeContext[HEADER_KEY] = header;
	items.forEach((item, index) => {
		nodeContext[`${ITEM_KEY_PREFIX}${index}`] = item;
	});
	nodeContext[UPLOAD_IDS_KEY] = items.map((item) => item.uploadId ?? null);
}

/**
 * A JavaScript string literal of `text` in which only letters, digits and spaces stand as
 * themselves, every other UTF-16 unit as \uXXXX: no `{{`, `}}`, quote, backslash or line break of
 * a node's name can end the literal or the expression around it.
 */
function stringLiteral(text: string): string {
	let literal = '"';
	for (let index = 0; index < text.length; index++) {
		const unit = text.charCodeAt(index);
		const plain = (unit >= 48 && unit <= 57) || (unit >= 65 && unit <= 90) || (unit >= 97 && unit <= 122) || unit === 32;
		literal += plain ? text[index] : `\\u${unit.toString(16).padStart(4, '0')}`;
	}
	return `${literal}"`;
}

/**
 * One key of the waiting node's context, from webhook(), which has no getContext: read through
 * n8n's expression `$node[name].context[key]`. Only names the node built go into the expression
 * (the node's own name and the key, each as a string literal of letters, digits and \u escapes:
 * stringLiteral), never a value a caller sent.
 */
function readContextKey(context: IWebhookFunctions, key: string): unknown {
	const expression = `{{ $node[${stringLiteral(context.getNode().name)}].context[${stringLiteral(key)}] }}`;
	return context.evaluateExpression(expression, 0);
}

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function readWaitHeader(context: IWebhookFunctions): WaitHeader | undefined {
	const value = readContextKey(context, HEADER_KEY);
	if (!isObject(value) || value.v !== 1) return undefined;
	const { secret, count, deadline, timeoutMs } = value;
	if (typeof secret !== 'string' || secret.length === 0) return undefined;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return undefined;
	if (typeof deadline !== 'number' || typeof timeoutMs !== 'number') return undefined;
	return { v: 1, secret, count, deadline, timeoutMs };
}

export function readWaitItem(context: IWebhookFunctions, index: number): WaitItem {
	const value = readContextKey(context, `${ITEM_KEY_PREFIX}${index}`);
	return isObject(value) ? (value as WaitItem) : {};
}
