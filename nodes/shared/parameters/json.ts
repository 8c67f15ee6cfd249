import type { IDataObject } from 'n8n-workflow';

import { printable } from '../../../credentials/shown';
import type { ApiContext } from '../run/context';
import { invalidParameter } from './message';

/**
 * A JSON parameter: n8n hands it over as text, or as a value when an expression produced one.
 * Returns the parsed object (or array), or throws naming the parameter and the item.
 */
export function requireJson<T extends 'object' | 'array'>(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
	shape: T,
): T extends 'array' ? unknown[] : IDataObject {
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = value.trim() === '' ? undefined : (JSON.parse(value) as unknown);
		} catch (error) {
			// The parser's reason may quote a piece of the text: printable, like the value itself.
			throw invalidParameter(context, itemIndex, parameter, value, `valid JSON (${printable((error as Error).message, 160)})`);
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
