/**
 * One request policy per item, per poll, per editor lookup: the request options (Max Retry Wait,
 * Request Timeout, Max Answer Size, Min Transfer Speed, Low Speed Time) are read where a run
 * starts, once, and handed down; nothing below reads them again. Counted on n8n-core's own
 * parameter reads (every context's getNodeParameter ends in NodeExecutionContext's
 * _getNodeParameter) while the engine runs the node, the trigger and the editor's lookups.
 */
import { ExecuteContext } from 'n8n-core';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { createBinaryItem, listSearch, loadOptions, pollTrigger, runNode } from '../../dev/harness';
import { seedFile } from './file-operations-support';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

/** Where the request options are read, inside every Options collection. */
const OPTION_PATHS = [
	'options.maxRateLimitWait',
	'options.requestTimeout',
	'options.maxAnswerSize',
	'options.minTransferSpeed',
	'options.lowSpeedTime',
];

/** The class whose _getNodeParameter every execution context's getNodeParameter calls. */
function parameterReader(): { _getNodeParameter: (name: string, itemIndex?: number, ...rest: unknown[]) => unknown } {
	let prototype: object | null = ExecuteContext.prototype;
	while (prototype && !Object.prototype.hasOwnProperty.call(prototype, '_getNodeParameter')) prototype = Object.getPrototypeOf(prototype) as object | null;
	if (!prototype) throw new Error("n8n-core's NodeExecutionContext no longer has _getNodeParameter");
	return prototype as ReturnType<typeof parameterReader>;
}

let reads: jest.SpyInstance;
beforeEach(() => {
	reads = jest.spyOn(parameterReader(), '_getNodeParameter');
});
afterEach(() => reads.mockRestore());

/** The reads of the request options, as `path@item`, in order. */
function optionReads(): string[] {
	return reads.mock.calls
		.filter(([name]) => OPTION_PATHS.includes(String(name)))
		.map(([name, itemIndex]) => `${String(name)}@${String(itemIndex)}`);
}

async function textItem(name: string): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(`${name}\nTotal Amount: 1.00\n`), fileName: `${name}.txt`, mimeType: 'text/plain' });
}

describe('the request options are read once, where the run starts', () => {
	it('the action node: each option once per item, for Upload (an API request, a storage PUT, a status check)', async () => {
		const { items, error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'file', operation: 'upload', options: { requestTimeout: 30, minTransferSpeed: 2, pollInterval: 0.5 } },
			credentials: credentialsFor(emulator),
			inputItems: [await textItem('a'), await textItem('b'), await textItem('c')],
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(3);
		expect(optionReads().sort()).toEqual(OPTION_PATHS.flatMap((path) => [0, 1, 2].map((item) => `${path}@${item}`)).sort());
	});

	it('a bad option fails its item before any request, naming it; the other items run', async () => {
		const { items, error } = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription', options: { requestTimeout: '={{ $json.timeout }}' } },
			credentials: credentialsFor(emulator),
			inputItems: [{ json: { timeout: 30 } }, { json: { timeout: 'slow' } }],
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.error ?? 'ok')).toEqual([
			'ok',
			'Invalid Request Timeout (Seconds) in item 1: expected a number of seconds, 1 or more, got "slow"',
		]);
		expect(requestsTo(emulator, 'api')).toHaveLength(1);
	});

	it('the trigger: each option once per poll', async () => {
		await seedFile(emulator);
		reads.mockClear();

		const { error } = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: { event: 'fileProcessed', options: { requestTimeout: 30 } },
			credentials: credentialsFor(emulator),
			mode: 'manual',
		});

		expect(error).toBeUndefined();
		expect(optionReads().map((read) => read.split('@')[0]).sort()).toEqual([...OPTION_PATHS].sort());
	});

	it("the editor's lookups read none: they run on the defaults, whatever the node's options say", async () => {
		await seedFile(emulator);
		// The operation being edited has an option that its own runs would refuse.
		const parameters: INodeParameters = { resource: 'file', operation: 'getValues', options: { requestTimeout: 'slow' } };
		const credentials = credentialsFor(emulator);

		const files = await listSearch({ type: 'documentExtraction', method: 'searchFiles', parameters, credentials });
		const fileTypes = await listSearch({ type: 'documentExtraction', method: 'searchFileTypes', parameters, credentials });
		const options = await loadOptions({ type: 'documentExtraction', method: 'getFileTypes', parameters, credentials });
		const classes = await loadOptions({
			type: 'documentExtractionTrigger',
			method: 'getFileClasses',
			parameters: { event: 'fileProcessed', options: { requestTimeout: 'slow' } },
			credentials,
		});

		expect(files.results.length).toBeGreaterThan(0);
		expect(fileTypes.results.length).toBeGreaterThan(0);
		expect(options.length).toBeGreaterThan(0);
		expect(classes.length).toBeGreaterThan(0);
		expect(optionReads()).toEqual([]);
	});
});
