import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';

import { OffsetClock } from '../../dev/emulator';
import { listSearch } from '../../dev/harness';
import type { SeededFile } from './file-operations-support';
import { runFileOperation, seedFile, seedManyFiles } from './file-operations-support';
import { credentialsFor, loadBuiltPackage, requestsTo, useEmulator } from './support';

const clock = new OffsetClock();
const emulator = useEmulator({ clock });
let early: SeededFile;
let late: SeededFile;
let many: SeededFile[];

beforeAll(async () => {
	early = await seedFile(emulator, 'early-invoice.txt');
	clock.advance(60 * 60 * 1000);
	late = await seedFile(emulator, 'late-invoice.txt');
	clock.advance(60 * 60 * 1000);
	many = await seedManyFiles(emulator, 118);
});

const TOTAL = 120;

function fileListRequests() {
	return requestsTo(emulator, 'api', 'GET', /\/files$/);
}

describe('File > Get Many', () => {
	it('returns all files over several pages, newest first, one item per file', async () => {
		const { items, error } = await runFileOperation(emulator, 'getMany', { returnAll: true });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(TOTAL);
		expect(items[0].json.fileId).toBe(many[many.length - 1].fileId);
		expect(items[TOTAL - 1].json.fileId).toBe(early.fileId);
		expect(new Set(items.map((item) => item.json.fileId)).size).toBe(TOTAL);
		for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
		expect(fileListRequests().map((entry) => entry.query)).toEqual([
			expect.objectContaining({ page: '1', limit: '100', sortBy: 'createdAt', sortOrder: 'DESC' }),
			expect.objectContaining({ page: '2', limit: '100', sortBy: 'createdAt', sortOrder: 'DESC' }),
		]);
	});

	it('stops at the Limit, asking for no more than it needs', async () => {
		const { items, error } = await runFileOperation(emulator, 'getMany', {
			returnAll: false,
			limit: 5,
			options: { sortOrder: 'ASC' },
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.fileId)).toEqual([
			early.fileId,
			late.fileId,
			...many.slice(0, 3).map((file) => file.fileId),
		]);
		expect(fileListRequests()).toHaveLength(1);
		expect(fileListRequests()[0].query).toMatchObject({ page: '1', limit: '5', sortOrder: 'ASC' });
	});

	it('filters by file IDs given as text or as an array from an expression', async () => {
		const asText = await runFileOperation(emulator, 'getMany', {
			returnAll: true,
			filters: { fileIds: `${early.fileId}, ${late.fileId}\n${early.fileId}` },
		});
		expect(asText.error).toBeUndefined();
		expect(asText.items.map((item) => item.json.fileName).sort()).toEqual(['early-invoice.txt', 'late-invoice.txt']);
		expect(JSON.parse(String(fileListRequests()[0].query.fileIds))).toEqual([early.fileId, late.fileId]);

		const asArray = await runFileOperation(
			emulator,
			'getMany',
			{ returnAll: true, filters: { fileIds: '={{ $json.ids }}' } },
			{ inputItems: [{ json: { ids: [late.fileId] } }] },
		);
		expect(asArray.error).toBeUndefined();
		expect(asArray.items.map((item) => item.json.fileId)).toEqual([late.fileId]);
	});

	it('filters by Created After and Updated After, read in the workflow time zone when no zone is given', async () => {
		const between = new Date(Date.parse(early.createdAt) + 30 * 60 * 1000).toISOString();
		const { items, error } = await runFileOperation(emulator, 'getMany', {
			returnAll: true,
			filters: { createdAfter: between },
			options: { sortOrder: 'ASC' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(TOTAL - 1);
		expect(items[0].json.fileId).toBe(late.fileId);

		// A wall time without a zone is read in the workflow's time zone (n8n's default: America/New_York).
		const future = new Date(clock.now() + 24 * 60 * 60 * 1000);
		const wallTime = future.toISOString().slice(0, 19);
		const updated = await runFileOperation(emulator, 'getMany', {
			returnAll: true,
			filters: { updatedAfter: wallTime },
		});
		expect(updated.error).toBeUndefined();
		expect(updated.items).toHaveLength(0);
		const sent = String(fileListRequests().at(-1)?.query.updatedAfter);
		const offsetHours = (Date.parse(sent) - Date.parse(`${wallTime}Z`)) / 3_600_000;
		expect([4, 5]).toContain(offsetHours);
	});

	it('rejects a malformed file ID before sending any request, naming the parameter and the item', async () => {
		const { items, error } = await runFileOperation(emulator, 'getMany', {
			returnAll: true,
			filters: { fileIds: `${early.fileId}, not-a-uuid` },
		});

		expect(items).toEqual([]);
		expect(error?.message).toContain('Invalid File IDs (entry 2) in item 0');
		expect(error?.message).toContain('expected a UUID');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it('rejects a date that is not one', async () => {
		const { error } = await runFileOperation(emulator, 'getMany', {
			returnAll: true,
			filters: { createdAfter: 'last tuesday' },
		});
		expect(error?.message).toContain('Invalid Created After in item 0');
		expect(requestsTo(emulator, 'api')).toHaveLength(0);
	});

	it('with Continue On Fail, outputs an error item for the failing input item and the files for the others', async () => {
		const { items, error } = await runFileOperation(
			emulator,
			'getMany',
			{ returnAll: true, filters: { fileIds: '={{ $json.ids }}' } },
			{ continueOnFail: true, inputItems: [{ json: { ids: 'nope' } }, { json: { ids: [late.fileId] } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({ pairedItem: { item: 0 } });
		expect(String(items[0].json.error)).toContain('Invalid File IDs (entry 1) in item 0');
		expect(items[1]).toMatchObject({ json: { fileId: late.fileId }, pairedItem: { item: 1 } });
	});

	it('reports the API error of a rejected list request', async () => {
		emulator.faults.failNext({ method: 'GET', path: '/files', status: 422, detail: 'sortBy is not supported here' });
		const { error } = await runFileOperation(emulator, 'getMany', { returnAll: true });
		expect(error?.message).toContain('sortBy is not supported here');
		expect(error?.message).toContain('HTTP 422');
	});
});

describe('File locator: From List (searchFiles)', () => {
	async function search(filter?: string, paginationToken?: string) {
		return await listSearch({
			type: 'documentExtraction',
			method: 'searchFiles',
			filter,
			paginationToken,
			credentials: credentialsFor(emulator),
		});
	}

	it('lists files newest first, a page at a time', async () => {
		const first = await search();
		expect(first.results).toHaveLength(100);
		const newest = many[many.length - 1];
		expect(first.results[0]).toEqual({
			name: expect.stringMatching(new RegExp(`^${newest.fileName.replace(/\./g, '\\.')} \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, processed, ID ${newest.fileId.slice(0, 8)}…\\)$`)),
			value: newest.fileId,
		});
		expect(first.paginationToken).toBe('2');

		const second = await search(undefined, first.paginationToken);
		expect(second.results).toHaveLength(TOTAL - 100);
		expect(second.results.at(-1)?.value).toBe(early.fileId);
		expect(second.paginationToken).toBeUndefined();
	});

	it('searches by name across pages (case-insensitive)', async () => {
		const found = await search('EARLY-inv');
		expect(found.results.map((result) => result.value)).toEqual([early.fileId]);
		expect(found.paginationToken).toBeUndefined();
		expect(fileListRequests()).toHaveLength(2);
	});

	it('finds a file by its ID', async () => {
		const found = await search(late.fileId);
		expect(found.results.map((result) => result.value)).toEqual([late.fileId]);
	});
});

describe('File > Get Many, Simplify', () => {
	it('keeps only name, status, ID, type, reference, summary, duplicate flag and dates, in that order, about a third of the record', async () => {
		const full = await runFileOperation(emulator, 'getMany', { limit: 1, options: { sortOrder: 'ASC' } });
		const simple = await runFileOperation(emulator, 'getMany', { limit: 1, simplify: true, options: { sortOrder: 'ASC' } });

		expect(simple.error).toBeUndefined();
		const [item] = simple.items;
		expect(Object.keys(item.json)).toEqual(['fileName', 'status', 'fileId', 'fileClass', 'referenceId', 'summary', 'isDuplicate', 'createdAt', 'updatedAt']);
		expect(item.json).toMatchObject({ fileId: early.fileId, fileName: 'early-invoice.txt', status: 'processed' });
		for (const [key, value] of Object.entries(item.json)) expect(full.items[0].json[key]).toEqual(value);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(JSON.stringify(item.json).length).toBeLessThan(JSON.stringify(full.items[0].json).length / 2);
	});

	it('is off for the node and on for its AI tool form (@tool), where a model reads every byte', async () => {
		const loaded = await loadBuiltPackage();
		const nodeType = Object.entries(loaded.nodeTypes).find(([name]) => name.endsWith('.documentExtraction'))?.[1] as { description: INodeTypeDescription };
		const simplify = nodeType.description.properties.filter(
			(property) => property.name === 'simplify' && property.displayOptions?.show?.resource?.includes('file') && property.displayOptions?.show?.operation?.includes('getMany'),
		);
		expect(simplify.map((property) => [property.displayOptions?.show?.['@tool'], property.default])).toEqual([
			[[false], false],
			[[true], true],
		]);
	});
});

describe('File > Get Many refuses bad filters, limits and sorting before any request', () => {
	const DATE = 'a date and time such as 2026-01-31T00:00:00Z (without a zone, the workflow time zone applies)';

	it.each<[string, IDataObject, string]>([
		['a Created After that is no date (2026-13-45)', { filters: { createdAfter: '2026-13-45' } }, `Invalid Created After in item 0: expected ${DATE}, got "2026-13-45"`],
		['a Created After on a day February does not have', { filters: { createdAfter: '2026-02-30T00:00:00Z' } }, `Invalid Created After in item 0: expected ${DATE}, got "2026-02-30T00:00:00Z"`],
		['an Updated After at hour 25', { filters: { updatedAfter: '2026-01-01T25:00' } }, `Invalid Updated After in item 0: expected ${DATE}, got "2026-01-01T25:00"`],
		['a Limit of 0', { limit: 0 }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "0"'],
		['a Limit of 2.5', { limit: 2.5 }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "2.5"'],
		['a Limit "all"', { limit: '={{ "all" }}' }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "all"'],
		['Return All "yes"', { returnAll: '={{ "yes" }}' }, 'Invalid Return All in item 0: expected true or false, got "yes"'],
		['a Sort By the list does not offer', { options: { sortBy: 'fileName' } }, 'Invalid Sort By in item 0: expected one of createdAt, updatedAt, got "fileName"'],
		['a Sort Order "sideways"', { options: { sortOrder: 'sideways' } }, 'Invalid Sort Order in item 0: expected one of ASC, DESC, got "sideways"'],
		[
			'File IDs from an expression giving whole file records',
			{ filters: { fileIds: '={{ [{ fileId: "3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23" }] }}' } },
			'Invalid File IDs (entry 1) in item 0: expected a UUID such as 3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23, not an object, got "{"fileId":"3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23"}"',
		],
	])('%s', async (_case, parameters, message) => {
		const { error } = await runFileOperation(emulator, 'getMany', parameters);

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
