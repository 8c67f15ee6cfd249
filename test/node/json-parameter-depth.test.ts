/**
 * A JSON parameter nested deeper than ITEM_LIMITS.maxJsonDepth is refused before any request,
 * naming the parameter and the item, instead of failing later with "Maximum call stack size
 * exceeded" while the request body is written (JSON.stringify recurses).
 */
import { ITEM_LIMITS } from '../../nodes/shared/limits';
import { apiCalls, runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

/** `{"a":{"a":…{}…}}`, `depth` objects deep. */
function nested(depth: number): string {
	return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

describe('JSON parameters nest at most ITEM_LIMITS.maxJsonDepth levels', () => {
	it('a Query Configuration 20,000 objects deep: refused before any request, naming the field, the item and the limit', async () => {
		const { error } = await runOperation(emulator, 'query', 'execute', { queryConfig: nested(20_000) });

		expect(error?.message).toMatch(
			new RegExp(`^Invalid Query Configuration \\(JSON\\) in item 0: expected a JSON object nested at most ${ITEM_LIMITS.maxJsonDepth} levels deep, got "`),
		);
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('one exactly at the limit is sent', async () => {
		const { error } = await runOperation(emulator, 'query', 'execute', { queryConfig: nested(ITEM_LIMITS.maxJsonDepth) });

		expect(error?.message ?? '').not.toMatch(/nested at most/);
		expect(apiCalls(emulator)).toEqual(['POST /query/execute']);
	});
});
