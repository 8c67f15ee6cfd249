import type { ApiContext } from '../run/context';
import { invalidParameter } from './message';

/**
 * A boolean parameter: true or false, or the text "true" or "false" (an expression over text
 * data gives those). Anything else is refused: "no" or "false " would otherwise count as true.
 */
export function requireBoolean(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalidParameter(context, itemIndex, parameter, value, 'true or false');
}

/** A choice among the values a parameter offers (an expression can give any text). */
export function requireOneOf<T extends string>(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
	allowed: readonly T[],
): T {
	const text = typeof value === 'string' ? value.trim() : undefined;
	if (text === undefined || !(allowed as readonly string[]).includes(text)) {
		throw invalidParameter(context, itemIndex, parameter, value, `one of ${allowed.join(', ')}`);
	}
	return text as T;
}
