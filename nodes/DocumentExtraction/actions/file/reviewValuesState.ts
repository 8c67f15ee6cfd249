import type { IDataObject, IExecuteFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { REVIEW_LIMITS } from '../../../shared/limits';
import { dropOldest, touch } from '../../../shared/recentlyUsed';
import { defaultRequestLimits, storedItemPolicy } from '../../../shared/requestPolicy';
import type { ItemPolicy } from '../../../shared/run';

/**
 * What File > Review Values keeps while its execution waits: in the node's context (saved by n8n
 * with the waiting execution, readable by webhook(), docs/dev/callback-wait.md), one key. And, in
 * process memory, the executions whose review this process has taken (sent once: a second submit
 * that reaches webhook() finds the claim), at most REVIEW_LIMITS.maxClaims, the oldest forgotten.
 */

export interface ReviewState {
	v: 1;
	secret: string;
	deadline: number;
	includeHidden: boolean;
	/** Options > Report Export Status: each file's export status set after its values are written (absent in a state written before the option). */
	reportExport?: boolean;
	/** By item: the file reviewed, or null for an item that failed before the wait. */
	files: Array<string | null>;
	/** By item: the error item of an item that failed before the wait (Continue On Fail). */
	failed: Array<IDataObject | null>;
}

const KEY = 'documentExtractionReview';

export function writeReviewState(context: IExecuteFunctions, state: ReviewState): void {
	context.getContext('node')[KEY] = state;
}

/** The state, from webhook() (which has no getContext): n8n's expression over the node's own name, never over caller input. */
export function readReviewState(context: IWebhookFunctions): ReviewState | undefined {
	const value = context.evaluateExpression(`{{ $node[${JSON.stringify(context.getNode().name)}].context[${JSON.stringify(KEY)}] }}`, 0) as IDataObject | undefined;
	if (!value || typeof value !== 'object' || value.v !== 1) return undefined;
	const { secret, deadline, files, failed } = value;
	if (typeof secret !== 'string' || secret === '' || typeof deadline !== 'number' || !Array.isArray(files) || !Array.isArray(failed)) return undefined;
	return value as unknown as ReviewState;
}

/** Claims of this process: 'sending' while a submit is written, 'sent' once it resumed the execution. */
const claims = new Map<string, 'sending' | 'sent'>();

export function claimOf(key: string): 'sending' | 'sent' | undefined {
	return claims.get(key);
}

export function setClaim(key: string, claim: 'sending' | 'sent' | undefined): void {
	if (claim === undefined) {
		claims.delete(key);
		return;
	}
	touch(claims, key, claim);
	dropOldest(claims, REVIEW_LIMITS.maxClaims);
}

/** How the webhook answers: a status, an HTML page, the preview links' origins (for the CSP). */
export type Send = (status: number, page: string, previewOrigins?: string[]) => IWebhookResponseData;

/** The policy of one request of a page or a submit: the defaults, capped (a person waits). */
export function reviewPolicy(context: IWebhookFunctions, index: number): ItemPolicy {
	return storedItemPolicy(context, defaultRequestLimits(), index, { requestTimeoutMs: REVIEW_LIMITS.requestTimeoutMs, maxWaitMs: REVIEW_LIMITS.maxRetryWaitMs });
}

/** What one process knows of this review by: the execution, node and secret. */
export function claimKey(context: IWebhookFunctions, state: ReviewState): string {
	return [context.getExecutionId() ?? '', context.getNode().name, state.secret].join('\u0000');
}
