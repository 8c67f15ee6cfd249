import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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

/** A file or upload id: a UUID. */
export function requireUuid(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	const id = trimmed(value);
	if (!UUID_PATTERN.test(id)) {
		throw invalidParameter(context, itemIndex, parameter, value, 'a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23');
	}
	return id;
}

/** A directory, schema, file-type, workflow or workspace id: 24 hexadecimal characters. */
export function requireObjectId(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
): string {
	const id = trimmed(value);
	if (!OBJECT_ID_PATTERN.test(id)) {
		throw invalidParameter(context, itemIndex, parameter, value, '24 hexadecimal characters such as 6650a00000000000000e1001');
	}
	return id;
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
