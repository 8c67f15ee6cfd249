/**
 * What the tests of Upload's Wait Mode "When the Service Calls Back" share: a waiting-webhook
 * server (dev/harness/waiting.ts) the emulator calls back over HTTP, an Upload run of several
 * documents through it, and the same run in the polling mode to compare with.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import { INVOICE_FILE_NAME, RECEIPT_FILE_NAME, emptyFile, invoiceText, mixedZip, receiptText } from '../../dev/documents';
import type { RunNodeResult, WaitingWebhooks, WaitingWebhooksOptions } from '../../dev/harness';
import { DEFAULT_NODE_NAME, createBinaryItem, runNode, startWaitingWebhooks } from '../../dev/harness';
import { credentialsFor, requestsTo } from './support';

export const NODE = DEFAULT_NODE_NAME;

/** A waiting-webhook server for each test of the file (n8n 2.x by default). */
export function useWaitingWebhooks(options: WaitingWebhooksOptions = {}): WaitingWebhooks {
	const server = {} as WaitingWebhooks;
	beforeEach(async () => {
		Object.assign(server, await startWaitingWebhooks(options));
	});
	afterEach(async () => {
		await server.close?.();
	});
	return server;
}

/** `count` text documents, alternately an invoice and a receipt, named doc-N. */
export async function documents(count: number, extra: (index: number) => IDataObject = () => ({})): Promise<INodeExecutionData[]> {
	return await Promise.all(
		Array.from({ length: count }, async (_, index) =>
			await createBinaryItem({
				buffer: Buffer.from(index % 2 === 0 ? invoiceText() : receiptText()),
				fileName: `doc-${index}-${index % 2 === 0 ? INVOICE_FILE_NAME : RECEIPT_FILE_NAME}`,
				json: { n: index, ...extra(index) },
			}),
		),
	);
}

/** One binary item of these bytes. */
export async function binaryItem(fileName: string, bytes: Buffer, mimeType?: string): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: bytes, fileName, mimeType, json: { fileName } });
}

/** The sample ZIP (five members, two of which fail). */
export async function mixedZipItem(): Promise<INodeExecutionData> {
	return await binaryItem('scanned-batch.zip', await mixedZip(), 'application/zip');
}

/** An empty file: refused before it is uploaded. */
export async function emptyFileItem(): Promise<INodeExecutionData> {
	return await binaryItem('empty.txt', emptyFile(), 'text/plain');
}

export const CALLBACK_UPLOAD: INodeParameters = { resource: 'file', operation: 'upload', waitForCompletion: true, waitMode: 'callback' };
export const POLLING_UPLOAD: INodeParameters = { resource: 'file', operation: 'upload', waitForCompletion: true, waitMode: 'poll', options: { pollInterval: 0.5 } };

export interface CallbackRun {
	parked: RunNodeResult;
	executionId: string;
}

/** Runs Upload in callback mode through the waiting-webhook server; resolves once its first run ended (waiting, or done at once). */
export async function startCallbackRun(
	emulator: Emulator,
	waiting: WaitingWebhooks,
	inputItems: INodeExecutionData[],
	parameters: INodeParameters = {},
	extra: { continueOnFail?: boolean; apiKey?: string; nodeName?: string } = {},
): Promise<CallbackRun> {
	const parked = await runNode({
		type: 'documentExtraction',
		parameters: { ...CALLBACK_UPLOAD, ...parameters },
		credentials: credentialsFor(emulator, extra.apiKey),
		inputItems,
		observer: waiting,
		continueOnFail: extra.continueOnFail,
		nodeName: extra.nodeName,
		mode: 'webhook',
	});
	return { parked, executionId: parked.result.executionId };
}

/** The node's output items once the execution has ended. */
export async function outputAfterWait(waiting: WaitingWebhooks, executionId: string, timeoutMs = 60_000, nodeName = NODE): Promise<INodeExecutionData[]> {
	const ended = await waiting.whenEnded(executionId, timeoutMs);
	return ended.outputOf(nodeName);
}

/** GET /uploads/{id} requests per upload ID. */
export function statusRequestsPerUpload(emulator: Emulator): Map<string, number> {
	const counts = new Map<string, number>();
	for (const entry of requestsTo(emulator, 'api', 'GET', /\/uploads\//)) {
		const id = entry.path.split('/').pop() ?? '';
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

const UUID = /[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}/g;

/** An item without what differs between two runs of the same documents (IDs, also inside messages, dates, hashes, duplicates). */
export function comparable(item: INodeExecutionData): IDataObject {
	const varying = new Set(['uploadId', 'fileId', 'zipUploadId', 'createdAt', 'updatedAt', 'fileStoragePath', 'fileHash', 'isDuplicate', 'duplicateToFileId', 'timestamp', 'apiRequestId', 'callbackURL', 'id', 'schemaRelationshipId']);
	const strip = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(strip);
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value as IDataObject).filter(([key]) => !varying.has(key)).map(([key, inner]) => [key, strip(inner)]));
		}
		return typeof value === 'string' ? value.replace(UUID, '<id>') : value;
	};
	// As n8n stores it (JSON): a pairedItem's `input: undefined` is not kept.
	return JSON.parse(JSON.stringify({ json: strip(item.json), pairedItem: item.pairedItem })) as IDataObject;
}
