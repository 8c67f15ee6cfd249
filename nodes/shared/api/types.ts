import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, Deadline, ItemPolicy, RequestPolicy } from '../run';
import type { AnswerCap } from '../transport';
import { unexpectedResponse } from '../transport';

/**
 * How one call is made: under the request policy of its item (its bounds and wait budget; errors
 * name the item), of a poll or of an editor lookup, required so that no call goes out unbounded;
 * and, where a wait bounds it, until when no attempt starts.
 */
export interface ApiCall {
	policy: RequestPolicy;
	deadline?: Deadline;
	/** A list read page by page: this page may read only what Max List Size has left. */
	answerCap?: AnswerCap;
}

/** A call that changes something: its Idempotency-Key is derived from the item and the body. */
export interface WriteCall {
	policy: ItemPolicy;
}

export type SortOrder = 'ASC' | 'DESC';

/** `{ success: true }`, the answer of most writes. */
export interface SuccessAnswer extends IDataObject {
	success?: boolean;
}

/**
 * Answer fields are typed as the API describes them. Only what the node relies on is checked
 * (named in each reader and in docs/dev/api-contract.md#endpoints); other fields are passed on as answered.
 */

/** `body[key]` when it is an object (e.g. `{ workflow: {...} }`), else an "unexpected shape" error. */
export function objectAt<T extends IDataObject>(
	context: ApiContext,
	body: IDataObject,
	key: string,
	what: string,
	itemIndex?: number,
): T {
	const value = body[key];
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw unexpectedResponse(context, what, body, itemIndex);
	}
	return value as T;
}

/** A copy of `body` without `key` (e.g. a presigned URL, a short-lived bearer secret, left out of the output). */
export function withoutField(body: IDataObject, key: string): IDataObject {
	const copy = { ...body };
	delete copy[key];
	return copy;
}
