import type { IDataObject } from 'n8n-workflow';

import { printable } from '../../../credentials/shown';
import { ITEM_LIMITS } from '../limits';
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
	if (depthOver(parsed, ITEM_LIMITS.maxJsonDepth)) {
		throw invalidParameter(
			context,
			itemIndex,
			parameter,
			value,
			`${shape === 'array' ? 'a JSON array' : 'a JSON object'} nested at most ${ITEM_LIMITS.maxJsonDepth} levels deep`,
		);
	}
	return parsed as T extends 'array' ? unknown[] : IDataObject;
}

/** Whether a parsed JSON value nests deeper than `max` levels, found without recursion. */
function depthOver(value: unknown, max: number): boolean {
	const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
	while (stack.length > 0) {
		const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
		if (current === null || typeof current !== 'object') continue;
		if (depth > max) return true;
		for (const child of Array.isArray(current) ? current : Object.values(current as Record<string, unknown>)) {
			if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
		}
	}
	return false;
}
