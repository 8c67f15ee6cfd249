/**
 * Query > Execute with Return All pages by offset through the paging guard. Rows carry no id, so a
 * page is judged by its content: a service that ignores `offset` (the same varied rows on every
 * page) fails at the second page instead of being asked again up to 10,000 times, while rows that
 * are all alike (a column with one value) may repeat page after page in earnest.
 */
import type { IDataObject } from 'n8n-workflow';

import { runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

const CONFIG = JSON.stringify({ selectedFields: [{ field: 'fileTypeId', alias: 'type' }] });

/** The next `count` query answers hold these rows, then the emulator's own (none: an empty workspace). */
function answerRows(rows: IDataObject[], count: number): void {
	emulator.faults.editAnswerNext({
		method: 'POST',
		path: '/query/execute',
		count,
		edit: (body) => ({ ...(body as object), data: rows, errors: [] }),
	});
}

function queryRequests() {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.path.endsWith('/query/execute'));
}

it('a service that ignores offset (the same rows on every page): the item fails at the second page, naming the list, the requests and what to do', async () => {
	answerRows([{ type: 'Invoice' }, { type: 'Receipt' }, { type: 'Invoice' }], 50);

	const { items, error } = await runOperation(emulator, 'query', 'execute', {
		queryConfig: CONFIG,
		returnAll: true,
		options: { pageSize: 3 },
	});

	expect(items).toHaveLength(0);
	expect(error?.message).toBe(
		'The API\'s list POST /query/execute made no progress: the page at offset 3 was the same as the page at offset 0. Stopped after 2 request(s) instead of asking again and again; the service may be ignoring the "offset" parameter. If the rows really repeat page after page, add a field that tells them apart (such as fileId) to selectedFields; otherwise try again later, or report it to the service.',
	);
	expect(queryRequests()).toHaveLength(2);
});

it('rows all alike (a column with one value) may repeat: every page is read and every row returned', async () => {
	answerRows([{ type: 'Invoice' }, { type: 'Invoice' }, { type: 'Invoice' }], 4);

	const { items, error } = await runOperation(emulator, 'query', 'execute', {
		queryConfig: CONFIG,
		returnAll: true,
		options: { pageSize: 3 },
	});

	expect(error).toBeUndefined();
	expect(items.map((item) => item.json)).toEqual(Array.from({ length: 12 }, () => ({ type: 'Invoice' })));
	expect(queryRequests()).toHaveLength(5);
});
