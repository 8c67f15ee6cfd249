import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { shown } from '../../credentials/shown';

/** The two ID forms of the API: UUIDs (files, uploads) and 24-hex IDs (everything else). */
export const ID_FORMS = {
	uuid: {
		pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
		expected: 'a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23',
	},
	objectId: {
		pattern: /^[0-9a-f]{24}$/i,
		expected: '24 hexadecimal characters such as 6650a00000000000000e1001',
	},
} as const;

export type IdForm = keyof typeof ID_FORMS;

/** Whether `id` is an ID of that form: the one check behind every ID, typed by the user or answered. */
export function isId(id: unknown, form: IdForm): id is string {
	return typeof id === 'string' && ID_FORMS[form].pattern.test(id);
}

/** Where an ID the service handed back came from, for the message when it is not an ID. */
export interface IdSource {
	/** What the ID is, e.g. "upload ID". */
	what: string;
	/** The answer that gave it, e.g. "The upload request's answer (POST /files/upload)". */
	source: string;
}

/**
 * An ID the service handed back (an upload ID, a file ID), checked before the node puts it into
 * a request path: ".." or "a/b" would reach another endpoint of the same host whatever the
 * encoding. Same check as a typed ID (isId); a bad one fails naming where it came from, and
 * nothing is requested with it.
 */
export function requireServiceId(
	context: { getNode(): INode },
	value: unknown,
	form: IdForm,
	{ what, source }: IdSource,
	itemIndex?: number,
): string {
	if (isId(value, form)) return value;
	throw new NodeOperationError(
		context.getNode(),
		`${source} gave the ${what} ${shown(value)}, expected ${ID_FORMS[form].expected}: nothing was requested with it`,
		{
			itemIndex,
			description: `The service (or something between n8n and it) answered a ${what} that is not in the form the API documents, so the node does not put it into a request path. Run the node again; if it persists, tell the service's support.`,
		},
	);
}
