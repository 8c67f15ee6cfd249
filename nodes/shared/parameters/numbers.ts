import type { ApiContext } from '../run/context';
import { invalidParameter } from './message';

/** Bounds of a number parameter. */
export interface NumberRange {
	min: number;
	max?: number;
	integer?: boolean;
}

/**
 * What a number parameter expects, in words: "a number of seconds from 0 to 3600", "a number of
 * KB/s, 0.1 or more", "a whole number of 1 or more".
 */
export function numberExpected(range: NumberRange, unit?: string): string {
	const kind = `${range.integer ? 'a whole number' : 'a number'}${unit ? ` of ${unit}` : ''}`;
	if (range.max !== undefined) return `${kind} from ${range.min} to ${range.max}`;
	return `${kind}${unit ? ',' : ' of'} ${range.min} or more`;
}

/**
 * A number parameter: a number, or text holding one (what an expression may give), within its
 * range. Anything else (empty, NaN, Infinity, an array, out of range) is refused; `expected`
 * says the range in words (numberExpected, or words of the caller's).
 */
export function requireNumber(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
	range: NumberRange,
	expected = numberExpected(range),
): number {
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
	if (
		!Number.isFinite(number) ||
		(range.integer && !Number.isInteger(number)) ||
		number < range.min ||
		(range.max !== undefined && number > range.max)
	) {
		throw invalidParameter(context, itemIndex, parameter, value, expected);
	}
	return number;
}

export function requirePositiveInteger(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): number {
	return requireNumber(context, itemIndex, parameter, value, { min: 1, integer: true }, 'a whole number of 1 or more');
}
