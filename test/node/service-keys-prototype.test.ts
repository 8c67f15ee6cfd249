/**
 * Keys the service chooses never change an object's prototype. A JSON answer may hold the keys
 * `__proto__`, `constructor` and `prototype` (JSON.parse makes them own keys); an output built by
 * assigning key by key (`out[key] = value`) would turn `__proto__` into the item's prototype, and
 * a later reader would see `isAdmin === true` that no field set. Every output path gets such keys
 * from the emulator (its answer edited) and must come out with the plain Object prototype, no
 * inherited `isAdmin`, and the keys kept as ordinary data where the output keeps the record.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED_IDS } from '../../dev/emulator';
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, buildZip, invoiceText, receiptText } from '../../dev/documents';
import { createBinaryItem, pollTrigger } from '../../dev/harness';
import { byId, seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { SEEDED_KEYS, credentialsFor, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

/** What a hostile record carries: made by JSON.parse, so each key is an own key of the record. */
const HOSTILE_JSON = '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"isAdmin": true}}, "prototype": {"isAdmin": true}}';
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** `record` with the hostile keys added as own keys (object spread keeps `__proto__` an own key). */
function hostile(record: Record<string, unknown>): Record<string, unknown> {
	return { ...record, ...(JSON.parse(HOSTILE_JSON) as Record<string, unknown>) };
}

/** A copy of `body` where every object that `pick` selects carries the hostile keys. */
function taint(body: unknown, pick: (record: Record<string, unknown>) => boolean): unknown {
	if (Array.isArray(body)) return body.map((entry) => taint(entry, pick));
	if (body === null || typeof body !== 'object') return body;
	const copy = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, taint(value, pick)]));
	return pick(copy) ? hostile(copy) : copy;
}

const isFileRecord = (record: Record<string, unknown>) => typeof record.fileId === 'string' && 'fileName' in record;

/** The answers of `path` carry the hostile keys on the records `pick` selects (for `count` answers). */
function hostileAnswers(path: string | RegExp, pick: (record: Record<string, unknown>) => boolean, count = 1, method?: string): void {
	emulator.faults.editAnswerNext({ path, method, count, edit: (body) => taint(body, pick) });
}

/**
 * Walks an output value: every object keeps the plain Object prototype and inherits no `isAdmin`;
 * returns how many hostile keys it found kept as own data (to prove the answer reached the output).
 */
function checkPrototypes(value: unknown, where = 'json'): number {
	if (value === null || typeof value !== 'object') return 0;
	if (Array.isArray(value)) return value.reduce<number>((sum, entry, index) => sum + checkPrototypes(entry, `${where}[${index}]`), 0);
	const inherited = 'isAdmin' in value && !Object.prototype.hasOwnProperty.call(value, 'isAdmin');
	expect([where, Object.getPrototypeOf(value) === Object.prototype, inherited]).toEqual([where, true, false]);
	let kept = 0;
	for (const key of Object.getOwnPropertyNames(value)) {
		// What a hostile key holds is the service's data, looked at no further.
		if ((HOSTILE_KEYS as readonly string[]).includes(key)) kept += 1;
		else kept += checkPrototypes((value as Record<string, unknown>)[key], `${where}.${key}`);
	}
	return kept;
}

function checkItems(result: { error?: unknown; items: INodeExecutionData[] }, expectedItems?: number): INodeExecutionData[] {
	expect(result.error).toBeUndefined();
	if (expectedItems !== undefined) expect(result.items).toHaveLength(expectedItems);
	expect(result.items.length).toBeGreaterThan(0);
	for (const item of result.items) checkPrototypes(item.json);
	// Nothing reached the prototype every object shares.
	expect(({} as IDataObject).isAdmin).toBeUndefined();
	return result.items;
}

/** The hostile keys of a record kept as plain own data: the answer reached the output untouched. */
function expectKeptAsData(json: unknown): void {
	for (const key of HOSTILE_KEYS) {
		const descriptor = Object.getOwnPropertyDescriptor(json, key);
		expect([key, descriptor?.enumerable, typeof descriptor?.value]).toEqual([key, true, 'object']);
	}
}

async function textItem(fileName: string, text: string): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(text, 'utf8'), fileName, mimeType: 'text/plain' });
}

describe('file records', () => {
	it.each([false, true])('File > Get Many (Simplify %s)', async (simplify) => {
		await seedFile(emulator);
		hostileAnswers('/files', isFileRecord);

		const items = checkItems(await runOperation(emulator, 'file', 'getMany', { returnAll: true, simplify }));

		if (!simplify) for (const item of items) expectKeptAsData(item.json);
	});

	it('File > Get Many, a record that also echoes the API key (the redacted copy keeps the prototype)', async () => {
		await seedFile(emulator);
		emulator.faults.editAnswerNext({
			path: '/files',
			edit: (body) => taint(body, (record) => isFileRecord(record) && Boolean((record.echo = SEEDED_KEYS.readWrite))),
		});

		const items = checkItems(await runOperation(emulator, 'file', 'getMany', { returnAll: true, simplify: false }));

		expect(JSON.stringify(items.map((item) => item.json))).not.toContain(SEEDED_KEYS.readWrite);
		for (const item of items) expectKeptAsData(item.json);
	});

	it('File > Upload, waiting for processing (the processed file records of the upload status)', async () => {
		hostileAnswers(/\/uploads\//, isFileRecord, 100);

		const items = checkItems(
			await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', options: { pollInterval: 0.5 } }, {
				inputItems: [await textItem(INVOICE_FILE_NAME, invoiceText())],
			}),
			1,
		);

		expectKeptAsData(items[0].json);
		expect(items[0].json).toMatchObject({ fileName: INVOICE_FILE_NAME, status: 'processed' });
	});

	it('File > Upload without waiting (the upload answer)', async () => {
		hostileAnswers('/files/upload', (record) => typeof record.uploadId === 'string');

		const items = checkItems(
			await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', waitForCompletion: false }, {
				inputItems: [await textItem(INVOICE_FILE_NAME, invoiceText())],
			}),
			1,
		);

		expectKeptAsData(items[0].json);
	});

	it('File > Upload of a ZIP (member records and their files)', async () => {
		const zip = await buildZip([
			{ name: INVOICE_FILE_NAME, data: invoiceText() },
			{ name: RECEIPT_FILE_NAME, data: receiptText() },
		]);
		hostileAnswers(/\/uploads\//, (record) => 'fileName' in record, 100);

		const items = checkItems(
			await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', options: { pollInterval: 0.5 } }, {
				inputItems: [await createBinaryItem({ buffer: zip, fileName: 'batch.zip', mimeType: 'application/zip' })],
			}),
			2,
		);

		for (const item of items) expectKeptAsData(item.json);
	});

	it.each([false, true])("the trigger's test event (a listed file record, Include Extracted Values %s)", async (includeValues) => {
		await seedFile(emulator);
		hostileAnswers('/files', isFileRecord);

		const items = checkItems(
			await pollTrigger({
				type: 'documentExtractionTrigger',
				parameters: { event: 'fileProcessed', options: { includeValues } },
				credentials: credentialsFor(emulator),
				mode: 'manual',
			}),
			1,
		);

		expectKeptAsData(items[0].json);
	});

	it('File > Get Upload Status', async () => {
		const file = await seedFile(emulator);
		hostileAnswers(/\/uploads\//, (record) => isFileRecord(record) || Array.isArray(record.statuses));

		const items = checkItems(await runOperation(emulator, 'file', 'getUploadStatus', { uploadId: String(file.uploadId) }), 1);

		expectKeptAsData(items[0].json);
	});

	it('File > Download (the file record beside the binary)', async () => {
		const file = await seedFile(emulator);
		hostileAnswers('/files', isFileRecord);

		const items = checkItems(await runOperation(emulator, 'file', 'download', { fileId: byId(file.fileId), binaryPropertyName: 'data' }), 1);

		expectKeptAsData(items[0].json);
	});
});

describe('extracted values', () => {
	const isFormRecord = (record: Record<string, unknown>) => Array.isArray(record.fields);

	it('File > Get Values with Simplify off (the form records)', async () => {
		const file = await seedFile(emulator);
		hostileAnswers(/\/values$/, isFormRecord);

		const items = checkItems(await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify: false }), 1);

		expectKeptAsData(items[0].json);
	});

	/** The next values answers (`count`) add fields titled with the hostile keys, and two tables holding them. */
	function hostileTitles(count = 1): void {
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/values$/,
			count,
			edit: (body) => {
				const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
				for (const form of answer.values.formValues) {
					form.fields.push(
						...HOSTILE_KEYS.map((title) => ({ title, type: 'OBJECT', value: { isAdmin: true, from: title } })),
						// A table whose rows are objects keyed by (hostile) column titles, and one whose rows are lists of fields.
						{ title: 'Rows', type: 'ARRAY', value: [JSON.parse(HOSTILE_JSON) as unknown] },
						{ title: 'Field Rows', type: 'ARRAY', value: [HOSTILE_KEYS.map((title) => ({ title, value: { isAdmin: true } }))] },
					);
				}
				return answer;
			},
		});
	}

	/** Simplified values: each hostile title is a key of its own holding its value. */
	function expectHostileTitlesKept(json: IDataObject): void {
		for (const title of HOSTILE_KEYS) {
			expect(Object.getOwnPropertyDescriptor(json, title)?.value).toEqual({ isAdmin: true, from: title });
		}
		expectKeptAsData((json.Rows as IDataObject[])[0]);
		expectKeptAsData((json['Field Rows'] as IDataObject[])[0]);
	}

	it('File > Get Values with Simplify on (fields titled __proto__, constructor, prototype)', async () => {
		const file = await seedFile(emulator);
		hostileTitles();

		const items = checkItems(await runOperation(emulator, 'file', 'getValues', { fileId: byId(file.fileId), simplify: true }), 1);

		expectHostileTitlesKept(items[0].json);
	});

	it.each([false, true])('File > Update Values (the values read back, Simplify %s)', async (simplify) => {
		const file = await seedFile(emulator);
		// Both reads: the file's fields, checked before the write (typeVersion 2), and the values read back.
		if (simplify) hostileTitles(2);
		else hostileAnswers(/\/values$/, isFormRecord, 2, 'GET');

		const items = checkItems(
			await runOperation(emulator, 'file', 'updateValues', {
				fileId: byId(file.fileId),
				inputMode: 'json',
				valuesJson: '[{ "title": "Total Amount", "value": 1 }]',
				simplify,
			}),
			1,
		);

		if (simplify) expectHostileTitlesKept(items[0].json.values as IDataObject);
		else expectKeptAsData((items[0].json.formValues as IDataObject[])[0]);
	});
});

describe('other answers', () => {
	const everyObject = () => true;

	it.each(['rows', 'single'])('Query > Execute (rows, output %s)', async (output) => {
		await seedFile(emulator);
		hostileAnswers('/query/execute', (record) => !Array.isArray(record.data) && !('field' in record));

		const items = checkItems(
			await runOperation(emulator, 'query', 'execute', {
				queryConfig: JSON.stringify({ selectedFields: [{ field: 'fileName', alias: 'file' }] }),
				returnAll: true,
				output,
			}),
		);

		expectKeptAsData(output === 'rows' ? items[0].json : (items[0].json.data as IDataObject[])[0]);
	});

	it.each([false, true])('File Type > Get Many (Simplify %s)', async (simplify) => {
		hostileAnswers('/file-type', (record) => typeof record.name === 'string' && 'currentSchemaVersion' in record);

		const items = checkItems(await runOperation(emulator, 'fileType', 'getMany', { returnAll: true, simplify }));

		if (!simplify) expectKeptAsData(items[0].json);
	});

	it('Workflow > Get', async () => {
		hostileAnswers(`/workflows/${SEED_IDS.workflowA}`, everyObject);

		const items = checkItems(await runOperation(emulator, 'workflow', 'get', { workflowId: { __rl: true, mode: 'id', value: SEED_IDS.workflowA } }), 1);

		expectKeptAsData(items[0].json);
	});

	it('Workspace > Get Subscription', async () => {
		hostileAnswers('/subscription', everyObject);

		expectKeptAsData(checkItems(await runOperation(emulator, 'workspace', 'getSubscription'), 1)[0].json);
	});

	it('Workspace > Get Project Settings', async () => {
		hostileAnswers('/project/setting', everyObject);

		expectKeptAsData(checkItems(await runOperation(emulator, 'workspace', 'getProjectSettings'), 1)[0].json);
	});

	it('Directory > Create', async () => {
		hostileAnswers('/directories', everyObject);

		expectKeptAsData(checkItems(await runOperation(emulator, 'directory', 'create', { name: 'Hostile keys' }), 1)[0].json);
	});
});
