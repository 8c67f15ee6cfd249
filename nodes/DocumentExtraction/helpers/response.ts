import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../transport';
import { unexpectedResponse } from '../transport';

/** `body[key]` when it is an object (e.g. `{ workflow: {...} }`), else an "unexpected shape" error. */
export function objectAt(
	context: ApiContext,
	body: IDataObject,
	key: string,
	what: string,
	itemIndex?: number,
): IDataObject {
	const value = body[key];
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw unexpectedResponse(context, what, body, itemIndex);
	}
	return value as IDataObject;
}

/** A copy of `body` without `key` (e.g. a presigned URL, a short-lived bearer secret, left out of the output). */
export function withoutField(body: IDataObject, key: string): IDataObject {
	const copy = { ...body };
	delete copy[key];
	return copy;
}
