/**
 * What one list read page by page holds is bounded by the user, not the service (issue 34,
 * finding 5): Return All (files, file types, query rows) and every page of a file's values stop at
 * Max List Size (MB), failing clearly, and the page that would pass it is not read whole.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../dev/harness';
import { seedFile } from './file-operations-support';
import { SEEDED_KEYS, credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

function run(resource: string, operation: string, parameters: IDataObject) {
	return runNode({
		type: 'documentExtraction',
		parameters: { resource, operation, ...parameters },
		credentials: credentialsFor(emulator, SEEDED_KEYS.readWrite),
	});
}

/** A file record of about `bytes` bytes, with an id never seen before. */
function bigFile(bytes: number): IDataObject {
	return { fileId: randomUUID(), fileName: 'big.pdf', status: 'processed', createdAt: '2026-01-01T00:00:00.000Z', note: 'x'.repeat(bytes) };
}

/** Full pages of 100 fresh files of about 20 KB each (2 MB a page), no total; a short last page after `pages`. */
function freshBigPages(pages: number): (body: unknown) => unknown {
	let served = 0;
	return () => {
		served += 1;
		const count = served <= pages ? 100 : 1;
		return { files: Array.from({ length: count }, () => bigFile(20 * 1024)) };
	};
}

describe('Return All holds at most Max List Size', () => {
	it('2 MB pages of fresh files without a total: fails at 5 MB, before the third page is read whole', async () => {
		emulator.faults.editAnswerNext({ method: 'GET', path: '/files', count: 1000, edit: freshBigPages(6) });

		const { error, items } = await run('file', 'getMany', { returnAll: true, options: { maxListSize: 5 } });

		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/The API's list \/files is larger than the node keeps for one list: 2 page\(s\) brought [\d.]+ MB, and the next page may bring only [\d.]+ MB more under Max List Size \(5 MB\)/);
		expect(error?.message).toMatch(/set a Limit/);
		// Pages 1 and 2 (4 MB) were read; page 3 was stopped at the 1 MB left. Before: all 7 pages, 12 MB, returned.
		expect(requestsTo(emulator, 'api', 'GET', /\/files$/)).toHaveLength(3);
	});

	it('a list that fits is returned whole', async () => {
		emulator.faults.editAnswerNext({ method: 'GET', path: '/files', count: 1000, edit: freshBigPages(2) });

		const { error, items } = await run('file', 'getMany', { returnAll: true, options: { maxListSize: 5 } });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(201);
	});

	it('Query > Execute with Return All: the rows of every page count together', async () => {
		let served = 0;
		emulator.faults.editAnswerNext({
			method: 'POST',
			path: '/query/execute',
			count: 1000,
			edit: () => {
				served += 1;
				const rows = served <= 6 ? 500 : 3;
				return { data: Array.from({ length: rows }, (_, index) => ({ name: `row ${served}-${index}`, text: 'y'.repeat(4 * 1024) })), headers: {}, executionTimeMs: 1 };
			},
		});

		const { error } = await run('query', 'execute', {
			queryConfig: '{"selectedFields":[{"field":"fileName","alias":"name"}]}',
			returnAll: true,
			options: { maxListSize: 5 },
		});

		// 2 MB a page: the third page finds 1 MB left. Before: 6 full pages and a short one, 12 MB of rows.
		expect(error?.message).toMatch(/The API's list POST \/query\/execute is larger than the node keeps for one list/);
		expect(requestsTo(emulator, 'api', 'POST', /\/query\/execute$/)).toHaveLength(3);
	});

	it('Max List Size below 1 is refused before any request', async () => {
		const { error } = await run('file', 'getMany', { returnAll: true, options: { maxListSize: 0 } });

		expect(error?.message).toMatch(/Invalid Max List Size \(MB\) in item 0/);
		expect(emulator.requests).toHaveLength(0);
	});
});

describe('every page of a file\'s values counts together too', () => {
	it('values pages past Max List Size fail the item clearly', async () => {
		let served = 0;
		const file = await seedFile(emulator);
		emulator.requests.length = 0;
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/values$/,
			count: 1000,
			edit: () => {
				served += 1;
				const count = served <= 6 ? 100 : 1;
				return { values: { formValues: Array.from({ length: count }, () => ({ id: randomUUID(), value: 'v'.repeat(20 * 1024) })) } };
			},
		});

		const { error } = await run('file', 'getValues', { fileId: { __rl: true, mode: 'id', value: file.fileId }, options: { maxListSize: 3 } });

		expect(error?.message).toMatch(/is larger than the node keeps for one list: 1 page\(s\) brought [\d.]+ MB/);
		expect(requestsTo(emulator, 'api', 'GET', /\/values$/)).toHaveLength(2);
	});

});
