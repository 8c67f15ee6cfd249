/**
 * Query > Execute takes what a page answers in one pass, however many rows it holds, and keeps
 * no more rows of a page than it asked for: a service that answers 200,000 rows to a request for
 * 10 gives 10, and a page of 200,000 rows asked for is read whole (adding a page's rows with
 * push(...rows) overflowed the call stack from about 150,000 rows).
 */
import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

const ROWS = 200_000;
const CONFIG = JSON.stringify({ selectedFields: [{ field: 'fileName', alias: 'file' }] });

/** The next `count` query answers hold `rows` rows each ({ n }), then the emulator's own. */
function answerRows(rows: number, count = 1): void {
	emulator.faults.editAnswerNext({
		method: 'POST',
		path: '/query/execute',
		count,
		edit: (body) => ({ ...(body as object), data: Array.from({ length: rows }, (_, n) => ({ n })), errors: [] }),
	});
}

it('a page of 200,000 rows asked for (Page Size 200,000) is read whole', async () => {
	answerRows(ROWS);

	const { items, error } = await runOperation(emulator, 'query', 'execute', {
		queryConfig: CONFIG,
		returnAll: true,
		output: 'single',
		options: { pageSize: ROWS },
	});

	expect(error).toBeUndefined();
	expect(items).toHaveLength(1);
	const data = items[0].json.data as Array<{ n: number }>;
	expect(items[0].json.rowCount).toBe(ROWS);
	expect(data).toHaveLength(ROWS);
	expect(data[0]).toEqual({ n: 0 });
	expect(data[ROWS - 1]).toEqual({ n: ROWS - 1 });
});

it.each(['rows', 'single'])('200,000 rows answered to a request for 10 give 10 (output %s)', async (output) => {
	answerRows(ROWS);

	const { items, error } = await runOperation(emulator, 'query', 'execute', { queryConfig: CONFIG, returnAll: false, limit: 10, output });

	expect(error).toBeUndefined();
	const rows = output === 'rows' ? items.map((item) => item.json) : (items[0].json.data as unknown[]);
	expect(rows).toEqual(Array.from({ length: 10 }, (_, n) => ({ n })));
});

it('with Return All, every page is cut to the Page Size asked for and the next page starts after it', async () => {
	answerRows(7, 1);

	const { items, error } = await runOperation(emulator, 'query', 'execute', {
		queryConfig: CONFIG,
		returnAll: true,
		output: 'single',
		options: { pageSize: 5 },
	});

	expect(error).toBeUndefined();
	expect(items[0].json.data).toEqual(Array.from({ length: 5 }, (_, n) => ({ n })));
	const pages = emulator.requests.filter((entry) => entry.host === 'api' && entry.path.endsWith('/query/execute'));
	expect(pages).toHaveLength(2);
});
