/**
 * Batching: the router runs items concurrently (Options > Batching) and still outputs them in
 * input order, each paired with its input item. Through the n8n engine against the emulator.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { createBinaryItem, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, useEmulator } from './support';

const emulator = useEmulator();

async function textItems(count: number, prefix: string): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (let index = 0; index < count; index++) {
		items.push(
			await createBinaryItem({
				buffer: Buffer.from(`Invoice Number: ${prefix}-${index}\nTotal Amount: ${index}\n`, 'utf8'),
				fileName: `${prefix}-${index}.txt`,
				mimeType: 'text/plain',
				json: { position: index },
				mode: 'filesystem',
			}),
		);
	}
	return items;
}

async function upload(inputItems: INodeExecutionData[], options: IDataObject, extra: IDataObject = {}) {
	return await runNode({
		type: 'documentExtraction',
		parameters: {
			resource: 'file',
			operation: 'upload',
			waitForCompletion: true,
			includeExtractedValues: false,
			options: { pollInterval: 0.5, ...options },
		},
		credentials: credentialsFor(emulator),
		inputItems,
		binaryDataMode: 'filesystem',
		...extra,
	});
}

/** File names in the order their storage PUTs were answered. */
function putOrder(prefix: string): string[] {
	return requestsTo(emulator, 'storage', 'PUT')
		.map((entry) => decodeURIComponent(entry.path.split('/').at(-1) ?? ''))
		.filter((name) => name.startsWith(prefix));
}

/** Storage PUTs that arrived while the upload request held back by a delay fault was waiting. */
function putsWhileHeld(): number {
	const held = emulator.requests.find((entry) => entry.fault === 'delay');
	if (!held || held.durationMs === undefined) throw new Error('no delayed request in the log');
	const releasedAt = Date.parse(held.time) + held.durationMs;
	return requestsTo(emulator, 'storage', 'PUT').filter(
		(entry) => entry.sequence > held.sequence && Date.parse(entry.time) < releasedAt,
	).length;
}

function expectInputOrder(items: INodeExecutionData[], prefix: string, count: number) {
	expect(items.map((item) => item.json.fileName)).toEqual(Array.from({ length: count }, (_, index) => `${prefix}-${index}.txt`));
	expect(items.map((item) => item.pairedItem)).toEqual(Array.from({ length: count }, (_, index) => ({ item: index })));
}

describe('Batching (router)', () => {
	it('runs items concurrently and outputs them in input order with their pairing', async () => {
		// The first upload request to arrive is held back; the other items go on meanwhile.
		emulator.faults.delayNext({ method: 'POST', path: '/files/upload', delayMs: 600 });

		const { items, error } = await upload(await textItems(6, 'batch'), { batching: { batch: { batchSize: 3 } } });

		expect(error).toBeUndefined();
		expectInputOrder(items, 'batch', 6);
		expect(items.every((item) => item.json.status === 'processed')).toBe(true);
		expect(putOrder('batch')).toHaveLength(6);
		expect(putsWhileHeld()).toBeGreaterThanOrEqual(2);
	});

	it('runs items one after the other without the Batching option', async () => {
		emulator.faults.delayNext({ method: 'POST', path: '/files/upload', delayMs: 300 });

		const { items, error } = await upload(await textItems(3, 'serial'), {});

		expect(error).toBeUndefined();
		expectInputOrder(items, 'serial', 3);
		expect(putOrder('serial')).toEqual(['serial-0.txt', 'serial-1.txt', 'serial-2.txt']);
		expect(putsWhileHeld()).toBe(0);
	});

	it('takes the defaults of a Batching option added without values', async () => {
		emulator.faults.delayNext({ method: 'POST', path: '/files/upload', delayMs: 600 });

		const { items, error } = await upload(await textItems(3, 'defaults'), { batching: { batch: {} } });

		expect(error).toBeUndefined();
		expectInputOrder(items, 'defaults', 3);
		expect(putsWhileHeld()).toBe(2);
	});

	it('sends batch after batch with a Batch Interval, in input order', async () => {
		const { items, error } = await upload(await textItems(5, 'interval'), {
			batching: { batch: { batchSize: 2, batchInterval: 150 } },
		});

		expect(error).toBeUndefined();
		expectInputOrder(items, 'interval', 5);
		// Batches do not overlap: a batch's uploads all end before the next batch starts.
		const order = putOrder('interval');
		expect(order.slice(0, 2).sort()).toEqual(['interval-0.txt', 'interval-1.txt']);
		expect(order.slice(2, 4).sort()).toEqual(['interval-2.txt', 'interval-3.txt']);
		expect(order[4]).toBe('interval-4.txt');
	});

	it('keeps a failed item in its place with continueOnFail', async () => {
		const input = await textItems(4, 'partial');
		delete input[2].binary;

		const { items, error } = await upload(input, { batching: { batch: { batchSize: 4 } } }, { continueOnFail: true });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json.fileName).toBe('partial-0.txt');
		expect(items[1].json.fileName).toBe('partial-1.txt');
		expect(items[2].json.error).toEqual(expect.stringContaining('data'));
		expect(items[2].json.fileName).toBeUndefined();
		expect(items[3].json.fileName).toBe('partial-3.txt');
	});

	it('fails with the error of the first failing item when continueOnFail is off', async () => {
		const input = await textItems(4, 'failing');
		delete input[1].binary;
		delete input[3].binary;

		const { error } = await upload(input, { batching: { batch: { batchSize: 4 } } });

		expect(error).toBeDefined();
		expect(error?.description ?? '').toContain('Item index: 1');
	});
});

describe('Batching settings are checked before any request', () => {
	it.each<[string, IDataObject, string]>([
		['Items per Batch 0', { batchSize: 0, batchInterval: 0 }, 'Invalid Items per Batch in item 0: expected a whole number of 1 or more, got "0"'],
		['a Batch Interval of -100 ms', { batchSize: 2, batchInterval: -100 }, 'Invalid Batch Interval (Ms) in item 0: expected a number of milliseconds, 0 or more, got "-100"'],
	])('%s', async (_case, batch, message) => {
		const { error } = await upload(await textItems(2, 'refused'), { batching: { batch } });

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});
});
