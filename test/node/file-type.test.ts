import type { IDataObject } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import type { FileTypeRecord } from '../../dev/emulator/types';
import { listSearch, loadOptions } from '../../dev/harness';
import { apiCalls, runOperation } from './run-operation';
import { credentialsFor, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator({}, 'test');
const clock = useFakeWaitClock();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const fromList = (value: string) => ({ __rl: true, mode: 'list', value });

/** Adds `count` copies of the Receipt file type to workspace A (the API has no create call). */
function addFileTypes(count: number): void {
	const receipt = emulator.state.fileTypes.get(SEED_IDS.receiptFileTypeA) as FileTypeRecord;
	for (let n = 0; n < count; n++) {
		const id = `7770a${n.toString(16).padStart(19, '0')}`;
		emulator.state.fileTypes.set(id, {
			...receipt,
			id,
			name: `Extra ${String(n).padStart(3, '0')}`,
			createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, n)).toISOString(),
			versions: receipt.versions.map((version) => ({ ...version, blueprintId: id })),
			fieldChangedAtMs: new Map(),
		});
	}
}

describe('File Type > Get Many', () => {
	it('outputs one simplified item per file type, with the ids Approve needs', async () => {
		const { items, error } = await runOperation(emulator, 'fileType', 'getMany', { returnAll: true });

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.name)).toEqual(['Invoice', 'Receipt', 'Purchase Order']);
		expect(items[0].json).toMatchObject({
			id: SEED_IDS.invoiceFileTypeA,
			blueprintId: SEED_IDS.invoiceFileTypeA,
			schemaId: SEED_IDS.invoiceSchemaV2A,
			usageApprovalState: 'approved',
		});
		expect(items[0].json.fieldTitles).toContain('Line Items');
		expect(items[1].json).toMatchObject({ schemaId: SEED_IDS.receiptSchemaV1A, usageApprovalState: 'pending' });
		items.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
	});

	it('returns the raw records when Simplify is off, sorted as asked, up to Limit', async () => {
		const { items, error } = await runOperation(emulator, 'fileType', 'getMany', {
			returnAll: false,
			limit: 1,
			simplify: false,
			options: { sortBy: 'name', sortOrder: 'DESC' },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.name).toBe('Receipt');
		expect(items[0].json.currentSchemaVersion).toMatchObject({ id: SEED_IDS.receiptSchemaV1A });
		const [request] = emulator.requests.filter((entry) => entry.host === 'api');
		expect(request.query).toMatchObject({ sortBy: 'name', sortOrder: 'DESC', page: '1' });
	});

	it('with Return All, reads page after page (page and limit) until the last one', async () => {
		addFileTypes(203);

		const { items, error } = await runOperation(emulator, 'fileType', 'getMany', { returnAll: true });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(206);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(206);
		const pages = emulator.requests.filter((entry) => entry.host === 'api').map((entry) => entry.query);
		expect(pages.map((query) => [query.page, query.limit])).toEqual([
			['1', '100'],
			['2', '100'],
			['3', '100'],
		]);
	});

	it('fails with the API\'s answer when a page cannot be read (503 retried, then reported)', async () => {
		emulator.faults.failNext({ method: 'GET', path: '/file-type', status: 503, count: 10 });

		const { items, error } = await runOperation(emulator, 'fileType', 'getMany', { returnAll: true });

		expect(items).toHaveLength(0);
		expect(error?.message).toContain('HTTP 503');
		expect(error?.message).toContain('Gave up after 4 attempts');
		expect(apiCalls(emulator)).toEqual(Array(4).fill('GET /file-type'));
		// Three backoff pauses, each within its step's bounds (0.5 s, 1 s, 2 s with equal jitter).
		expect(clock.sleeps).toHaveLength(3);
		clock.sleeps.forEach((ms, retry) => {
			const step = 500 * 2 ** retry;
			expect(ms).toBeGreaterThanOrEqual(step / 2);
			expect(ms).toBeLessThanOrEqual(step);
		});
	});

	it('with a Limit over one page, stops once it has enough', async () => {
		addFileTypes(203);

		const { items } = await runOperation(emulator, 'fileType', 'getMany', { returnAll: false, limit: 150, simplify: false });

		expect(items).toHaveLength(150);
		expect(apiCalls(emulator)).toEqual(['GET /file-type', 'GET /file-type']);
	});
});

describe('File Type > Approve', () => {
	it('approves the current schema version of a file type chosen from the list', async () => {
		const { items, error } = await runOperation(emulator, 'fileType', 'approve', {
			approveBy: 'fileType',
			fileType: fromList(SEED_IDS.receiptFileTypeA),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			success: true,
			fileTypeId: SEED_IDS.receiptFileTypeA,
			fileTypeName: 'Receipt',
			blueprintId: SEED_IDS.receiptFileTypeA,
			schemaId: SEED_IDS.receiptSchemaV1A,
		});
		expect(emulator.state.fileTypes.get(SEED_IDS.receiptFileTypeA)?.usageApprovalState).toBe('approved');
		expect(apiCalls(emulator)).toEqual(['GET /file-type', 'PATCH /file-type/approve']);
		const patch = emulator.requests.find((entry) => entry.method === 'PATCH');
		expect(patch?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
	});

	it('approves a version given by blueprint and schema ids, without looking up file types', async () => {
		const { items, error } = await runOperation(emulator, 'fileType', 'approve', {
			approveBy: 'ids',
			blueprintId: SEED_IDS.invoiceFileTypeA,
			schemaId: SEED_IDS.invoiceSchemaV1A,
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			success: true,
			blueprintId: SEED_IDS.invoiceFileTypeA,
			schemaId: SEED_IDS.invoiceSchemaV1A,
		});
		const invoice = emulator.state.fileTypes.get(SEED_IDS.invoiceFileTypeA) as FileTypeRecord;
		expect(invoice.versions.find((version) => version.id === SEED_IDS.invoiceSchemaV1A)?.usageApprovalState).toBe('approved');
		expect(apiCalls(emulator)).toEqual(['PATCH /file-type/approve']);
	});

	it('reports the API\'s 400 for a schema that is not a version of the blueprint', async () => {
		const { error } = await runOperation(emulator, 'fileType', 'approve', {
			approveBy: 'ids',
			blueprintId: SEED_IDS.receiptFileTypeA,
			schemaId: SEED_IDS.invoiceSchemaV2A,
		});

		expect(error?.message).toContain('HTTP 400 BAD_REQUEST');
		expect(error?.message).toContain(`is not a version of file type ${SEED_IDS.receiptFileTypeA}`);
	});

	it('says so when the chosen file type is not in the workspace, before approving anything', async () => {
		const { error } = await runOperation(emulator, 'fileType', 'approve', {
			approveBy: 'fileType',
			fileType: byId(SEED_IDS.invoiceFileTypeB),
		});

		expect(error?.message).toBe(
			`File type ${SEED_IDS.invoiceFileTypeB} (parameter "File Type", item 0) was not found in the workspace of this API key`,
		);
		expect(apiCalls(emulator)).toEqual(['GET /file-type']);
	});

	it('with continueOnFail, a malformed schema id gives an error item and the other item is approved', async () => {
		const { items, error } = await runOperation(
			emulator,
			'fileType',
			'approve',
			{ approveBy: 'ids', blueprintId: SEED_IDS.receiptFileTypeA, schemaId: '={{ $json.schemaId }}' },
			{ continueOnFail: true, inputItems: [{ json: { schemaId: 'v1' } }, { json: { schemaId: SEED_IDS.receiptSchemaV1A } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe(
			'Invalid Schema ID in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "v1"',
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ success: true, schemaId: SEED_IDS.receiptSchemaV1A });
		expect(apiCalls(emulator)).toEqual(['PATCH /file-type/approve']);
	});
});

describe('File type pickers', () => {
	it('list search finds file types by name, labelled with version and approval state', async () => {
		const all = await listSearch({
			type: 'documentExtraction',
			method: 'searchFileTypes',
			credentials: credentialsFor(emulator),
			parameters: { resource: 'fileType', operation: 'approve' },
		});
		expect(all.results).toEqual([
			{ name: 'Invoice (v2.0, approved)', value: SEED_IDS.invoiceFileTypeA },
			{ name: 'Purchase Order (v1.0, approved)', value: SEED_IDS.purchaseOrderFileTypeA },
			{ name: 'Receipt (v1.0, pending)', value: SEED_IDS.receiptFileTypeA },
		]);

		const filtered = await listSearch({
			type: 'documentExtraction',
			method: 'searchFileTypes',
			filter: 'RECEI',
			credentials: credentialsFor(emulator),
			parameters: { resource: 'fileType', operation: 'approve' },
		});
		expect(filtered.results.map((result) => result.value)).toEqual([SEED_IDS.receiptFileTypeA]);
	});

	it('load options give the Document Types of Query > Execute, every page of them', async () => {
		addFileTypes(120);
		const options = await loadOptions({
			type: 'documentExtraction',
			method: 'getFileTypes',
			credentials: credentialsFor(emulator),
			parameters: { resource: 'query', operation: 'execute' },
		});

		expect(options).toHaveLength(123);
		expect(options.find((option) => option.value === SEED_IDS.invoiceFileTypeA)).toMatchObject({
			name: 'Invoice (v2.0, approved)',
		});
		expect(apiCalls(emulator)).toEqual(['GET /file-type', 'GET /file-type']);
	});
});

describe('File Type operations refuse bad choices and limits before any request', () => {
	it.each<[string, string, IDataObject, string]>([
		['Get Many', 'a Limit of 0', { limit: 0 }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "0"'],
		['Get Many', 'a Limit "ten"', { limit: '={{ "ten" }}' }, 'Invalid Limit in item 0: expected a whole number of 1 or more, got "ten"'],
		['Get Many', 'a Sort By the list does not offer', { options: { sortBy: 'color' } }, 'Invalid Sort By in item 0: expected one of createdAt, name, updatedAt, got "color"'],
		['Get Many', 'a Sort Order "up"', { options: { sortOrder: 'up' } }, 'Invalid Sort Order in item 0: expected one of ASC, DESC, got "up"'],
		['Approve', 'an Approve By it does not offer', { approveBy: 'magic' }, 'Invalid Approve By in item 0: expected one of fileType, ids, got "magic"'],
		[
			'Approve',
			'a File Type from an expression giving an array',
			{ approveBy: 'fileType', fileType: byId(`={{ ["${SEED_IDS.invoiceFileTypeA}"] }}`) },
			`Invalid File Type in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, not an array, got "["${SEED_IDS.invoiceFileTypeA}"]"`,
		],
	])('%s: %s', async (operation, _case, parameters, message) => {
		const { error } = await runOperation(emulator, 'fileType', operation === 'Approve' ? 'approve' : 'getMany', parameters);

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
