import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { splitList } from './lists';

/** Local checks that run before any request, with errors naming the parameter, item and form. */

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/i;

function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text === undefined ? 'nothing' : `"${text.length > 80 ? `${text.slice(0, 80)}…` : text}"`;
}

export function invalidParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	expected: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`Invalid ${parameter} in item ${itemIndex}: expected ${expected}, got ${shown(value)}`,
		{
			itemIndex,
			description: `Correct "${parameter}" (it is checked before anything is sent to the API).`,
		},
	);
}

function trimmed(value: unknown): string {
	return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

/** The two id forms of the API: UUIDs (files, uploads) and 24-hex ids (everything else). */
const ID_FORMS = {
	uuid: { pattern: UUID_PATTERN, expected: 'a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23' },
	objectId: { pattern: OBJECT_ID_PATTERN, expected: '24 hexadecimal characters such as 6650a00000000000000e1001' },
} as const;

export type IdForm = keyof typeof ID_FORMS;

/** Between the ids of a list given as text. */
const ID_SEPARATORS = /[\s,]+/;

function requireId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string {
	const id = trimmed(value);
	if (!ID_FORMS[form].pattern.test(id)) {
		throw invalidParameter(context, itemIndex, parameter, value, ID_FORMS[form].expected);
	}
	return id;
}

/** A file or upload id: a UUID. */
export function requireUuid(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'uuid');
}

/** A directory, schema, file-type, workflow or workspace id: 24 hexadecimal characters. */
export function requireObjectId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	return requireId(context, itemIndex, parameter, value, 'objectId');
}

/**
 * A list of ids, given as an array (e.g. from an expression) or as text separated by commas,
 * spaces or new lines. Empty entries are dropped, duplicates kept once; every id is checked and
 * a bad one is named with its position.
 */
export function requireIdList(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	form: IdForm,
): string[] {
	const ids: string[] = [];
	splitList(value, ID_SEPARATORS).forEach((entry, position) => {
		const id = requireId(context, itemIndex, `${parameter} (entry ${position + 1})`, entry, form);
		if (!ids.includes(id)) ids.push(id);
	});
	return ids;
}

/**
 * A JSON parameter: n8n hands it over as text, or as a value when an expression produced one.
 * Returns the parsed object (or array), or throws naming the parameter and the item.
 */
export function requireJson<T extends 'object' | 'array'>(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	shape: T,
): T extends 'array' ? unknown[] : IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = value.trim() === '' ? undefined : (JSON.parse(value) as unknown);
		} catch (error) {
			throw invalidParameter(context, itemIndex, parameter, value, `valid JSON (${(error as Error).message})`);
		}
	}
	const ok =
		shape === 'array'
			? Array.isArray(parsed)
			: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
	if (!ok) {
		throw invalidParameter(context, itemIndex, parameter, value, shape === 'array' ? 'a JSON array' : 'a JSON object');
	}
	return parsed as T extends 'array' ? unknown[] : IDataObject;
}

export function requireHttpsUrl(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	const text = trimmed(value);
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || url.protocol !== 'https:' || !url.hostname) {
		throw invalidParameter(context, itemIndex, parameter, value, 'an https:// URL');
	}
	return text;
}

export function requirePositiveInteger(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): number {
	const number = typeof value === 'number' ? value : Number(trimmed(value));
	if (!Number.isInteger(number) || number < 1) {
		throw invalidParameter(context, itemIndex, parameter, value, 'a whole number of 1 or more');
	}
	return number;
}

export function requireText(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	maxLength = 255,
): string {
	const text = trimmed(value);
	if (!text || text.length > maxLength) {
		throw invalidParameter(context, itemIndex, parameter, value, `text of 1 to ${maxLength} characters`);
	}
	return text;
}
