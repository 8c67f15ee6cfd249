import { NodeOperationError } from 'n8n-workflow';

import { shown } from '../../../credentials/shown';
import type { ApiContext } from '../run/context';

/**
 * The one message of a parameter that fails its check, in every context: the item (where there
 * is one), the field as the editor names it, what was expected, what was got (shown safely), and
 * what to do. Nothing has been sent to the API when it is thrown.
 *
 *   Invalid Limit in item 2: expected a whole number of 1 or more, got "0"
 *   Correct "Limit" (it is checked before anything is sent to the API).
 */
export function invalidParameter(
	context: Pick<ApiContext, 'getNode'>,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
	expected: string,
): NodeOperationError {
	const where = itemIndex === undefined ? '' : ` in item ${itemIndex}`;
	return new NodeOperationError(context.getNode(), `Invalid ${parameter}${where}: expected ${expected}, got ${shown(value)}`, {
		itemIndex,
		description: `Correct "${parameter}" (it is checked before anything is sent to the API).`,
	});
}

/** How a value that is not text reads in a message ("an array", "an object", "true/false"). */
export function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'boolean') return 'true/false';
	if (typeof value === 'number') return 'a number that is not finite';
	return typeof value === 'object' ? 'an object' : `a value of type ${typeof value}`;
}
