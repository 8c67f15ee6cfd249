/**
 * The reliability matrix: one case is one run of the Document Extraction node through the n8n
 * engine (the harness: n8n-core's WorkflowExecute) against a fresh emulator with a fault or a bad
 * input, measured from the emulator's own records. See docs/reliability.md.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Emulator, EmulatorOptions } from '../../dev/emulator';
import { SEEDED_KEYS, keyLeaks, startEmulator } from '../../dev/emulator';
import { uploadAndGetFile } from '../../dev/emulator/client';
import { createBinaryItem, installRecordingWaitClock, runNode } from '../../dev/harness';
import type { BinaryDataMode, RunNodeResult } from '../../dev/harness';
import { startRssMeter } from './rss-meter';

export type CaseGroup = 'fault' | 'input' | 'credential' | 'trigger';

/** What a person should see: the run succeeds, or fails with a clear error, or is refused before any request. */
export type Expectation = 'success' | 'error' | 'refused before any request' | 'stopped';

export interface CaseContext {
	emulator: Emulator;
	/** Documents to upload, each with distinct content (so that duplicates can be counted). */
	documents(count: number, options?: { bytes?: number; name?: string }): Promise<INodeExecutionData[]>;
	/** Seeds `count` processed files through the emulator's API; returns their ids. */
	seedFiles(count: number): Promise<string[]>;
}

export interface MatrixCase {
	group: CaseGroup;
	/** What is broken: the fault, or the parameter and its bad value. */
	name: string;
	/** The operation, as `resource.operation`. */
	operation: string;
	expect: Expectation;
	/** Node parameters besides resource and operation; may depend on seeded data. */
	parameters?: INodeParameters | ((seeded: string[]) => INodeParameters);
	/** Input items (default one empty item). */
	input?: (context: CaseContext) => Promise<INodeExecutionData[]>;
	/** Files to seed before the run (their ids go to `parameters`). */
	seed?: number;
	/** Faults and other emulator setup, after seeding. */
	setup?: (context: CaseContext) => void | Promise<void>;
	emulatorOptions?: EmulatorOptions;
	/** Credential fields over the working ones (e.g. a hostile Base URL). */
	credentials?: ICredentialDataDecryptedObject;
	/**
	 * Instead of the Document Extraction node, a request of the case's own sent with the credential
	 * by a node that borrows it as n8n's HTTP Request node does (dev/credential-borrower-package):
	 * `helper` picks n8n's legacy or current helper, `request` gives the request options for the
	 * emulator's API URL, `baseUrlPath` is appended to that URL for the credential's Base URL.
	 */
	borrow?: { helper: 'legacy' | 'current'; request: (apiUrl: string) => IDataObject; baseUrlPath?: string };
	binaryDataMode?: BinaryDataMode;
	/** The node's On Error: Continue setting. */
	continueOnFail?: boolean;
	/** Stops the execution when this settles (as the editor's Stop button). */
	stopWhen?: (context: CaseContext) => Promise<unknown>;
	/** The documented bound of this case's waits, for the table, e.g. "Max Retry Wait 60 s". */
	bound?: string;
	/**
	 * Another execution with the same credential, started beside the case's run (e.g. once the
	 * first 429 was answered): its API requests count in the table, and those sent inside the
	 * pause a 429 announced are counted apart.
	 */
	alongside?: (context: CaseContext, run: (operation: string, parameters?: INodeParameters) => Promise<RunNodeResult>) => Promise<unknown>;
}

export interface CaseResult {
	matrixCase: MatrixCase;
	/** The error's message, or "success (N items)". */
	outcome: string;
	/** Whether the outcome is the one expected. */
	asExpected: boolean;
	apiRequests: number;
	storageRequests: number;
	seconds: number;
	documentsCreated: number;
	documentsLost: number;
	documentsDuplicated: number;
	/** Requests that reached the storage or trap host carrying the key. */
	keyLeaks: number;
	/** Whether the key appears in an output item, the error, the stored run data or a log line. */
	keyShown: boolean;
	waits: number[];
	/** The n8n process's peak resident memory during the run, over its resident memory before (MiB). */
	peakRssMiB: number;
	/** API requests that arrived while a 429's announced pause was running. */
	insideAnnouncedWaits: number;
}

/** API requests that arrived inside the pause a 429 announced (from its answer, for its retryAfter). */
function requestsInsideAnnouncedWaits(emulator: Emulator): number {
	const api = emulator.requests.filter((entry) => entry.host === 'api');
	const pauses = api
		.filter((entry) => entry.status === 429 && entry.durationMs !== undefined)
		.map((entry) => {
			const answeredAt = Date.parse(entry.time) + (entry.durationMs ?? 0);
			const seconds = entry.retryAfter ?? 0;
			return { from: answeredAt, to: answeredAt + seconds * 1000 };
		})
		.filter((pause) => pause.to > pause.from);
	return api.filter((entry) => pauses.some((pause) => Date.parse(entry.time) > pause.from && Date.parse(entry.time) < pause.to)).length;
}

const KEY = SEEDED_KEYS.readWrite;

/** The test-only package whose node borrows our credential as n8n's HTTP Request node does. */
const BORROWER_PACKAGE = join(__dirname, '..', '..', 'dev', 'credential-borrower-package');
const BORROWER_TYPE = 'n8n-nodes-credential-borrower.credentialBorrower';

function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

function short(text: string, max = 160): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function refusedByN8n(error: Error): RunNodeResult {
	const refusal = { message: `n8n refused to run the node: ${error.message}` } as RunNodeResult['error'];
	return {
		items: [],
		outputs: [],
		error: refusal,
		result: { status: 'error', run: { data: {} }, logs: [] } as unknown as RunNodeResult['result'],
	};
}

/** Runs one case against a fresh emulator and measures it. */
export async function runCase(matrixCase: MatrixCase, caseIndex: number): Promise<CaseResult> {
	const emulator = await startEmulator({ processingDelayMs: 0, ...(matrixCase.emulatorOptions ?? {}) });
	const uploaded: Buffer[] = [];
	const context: CaseContext = {
		emulator,
		async documents(count, options = {}) {
			const items: INodeExecutionData[] = [];
			for (let index = 0; index < count; index++) {
				const head = Buffer.from(`Matrix case ${caseIndex} document ${index}\nTotal Amount: ${100 + index}\n`, 'utf8');
				const bytes = options.bytes && options.bytes > head.length ? Buffer.concat([head, Buffer.alloc(options.bytes - head.length, 32)]) : head;
				uploaded.push(bytes);
				items.push(
					await createBinaryItem({
						buffer: bytes,
						fileName: options.name ?? `matrix-${caseIndex}-${index}.txt`,
						mimeType: 'text/plain',
						mode: matrixCase.binaryDataMode ?? 'default',
					}),
				);
			}
			return items;
		},
		async seedFiles(count) {
			const ids: string[] = [];
			for (let index = 0; index < count; index++) {
				const file = (await uploadAndGetFile(emulator, `seeded-${index}.txt`, `Seeded ${index}\nTotal Amount: 1`, { fileType: 'text/plain' })) as IDataObject;
				ids.push(String(file.fileId));
			}
			return ids;
		},
	};
	try {
		const seeded = matrixCase.seed ? await context.seedFiles(matrixCase.seed) : [];
		const inputItems = matrixCase.input ? await matrixCase.input(context) : undefined;
		await matrixCase.setup?.(context);
		emulator.requests.length = 0;
		const filesBefore = new Set(emulator.state.files.keys());
		const [resource, operation] = matrixCase.operation.split('.');
		const parameters =
			typeof matrixCase.parameters === 'function' ? matrixCase.parameters(seeded) : (matrixCase.parameters ?? {});
		const clock = installRecordingWaitClock();
		const started = performance.now();
		const rss = startRssMeter();
		let peakRssMiB = 0;
		const runWithKey = async (other: string, otherParameters: INodeParameters = {}) => {
			const [otherResource, otherOperation] = other.split('.');
			return await runNode({
				type: 'documentExtraction',
				parameters: { resource: otherResource, operation: otherOperation, ...otherParameters },
				credentials: { documentExtractionApi: { apiKey: KEY, instance: 'default', baseUrl: emulator.apiUrl } },
			});
		};
		const beside = matrixCase.alongside?.(context, runWithKey);
		let result: RunNodeResult;
		const borrow = matrixCase.borrow;
		try {
			result = borrow
				? await runNode({
						type: BORROWER_TYPE,
						extraPackageDirs: [BORROWER_PACKAGE],
						parameters: { helper: borrow.helper, requestOptions: JSON.stringify(borrow.request(emulator.apiUrl)) },
						credentials: { documentExtractionApi: { apiKey: KEY, instance: 'default', baseUrl: `${emulator.apiUrl}${borrow.baseUrlPath ?? ''}` } },
					})
				: await runNode({
						type: 'documentExtraction',
						parameters: { resource, operation, ...parameters },
						credentials: { documentExtractionApi: { apiKey: KEY, instance: 'default', baseUrl: emulator.apiUrl, ...(matrixCase.credentials ?? {}) } },
						inputItems,
						binaryDataMode: matrixCase.binaryDataMode,
						continueOnFail: matrixCase.continueOnFail,
						cancelWhen: matrixCase.stopWhen?.(context),
					});
		} catch (error) {
			// n8n itself refused to start the run (an empty required parameter, a locator that fails
			// its own check): the node never ran, so nothing was sent.
			result = refusedByN8n(error as Error);
		} finally {
			await beside?.catch(() => undefined);
			clock.restore();
			peakRssMiB = rss.stop();
		}
		const seconds = (performance.now() - started) / 1000;
		await emulator.idle();

		const created = [...emulator.state.files.values()].filter((file) => !filesBefore.has(file.fileId));
		let lost = 0;
		let duplicated = 0;
		const reportedAnError = result.error !== undefined || result.items.some((item) => item.json.error !== undefined);
		for (const bytes of uploaded) {
			const copies = created.filter((file) => file.fileHash === sha256(bytes)).length;
			if (copies > 1) duplicated += copies - 1;
			// Lost: the run says all went well, yet the service has no document of this input.
			if (copies === 0 && !reportedAnError && result.result.status !== 'canceled') lost += 1;
		}
		const shown = JSON.stringify([result.items, result.error, result.result.run.data, result.result.logs.map((line) => line.text)]);
		const outcome =
			result.result.status === 'canceled'
				? `stopped (${result.items.length} items done)`
				: result.error
					? short(result.error.message)
					: `success (${result.items.length} item${result.items.length === 1 ? '' : 's'}${result.items.some((item) => item.json.error !== undefined) ? ', with error items' : ''})`;
		const apiRequests = emulator.requests.filter((entry) => entry.host === 'api').length;
		const storageRequests = emulator.requests.filter((entry) => entry.host === 'storage').length;
		const asExpected =
			matrixCase.expect === 'success'
				? result.error === undefined && result.result.status !== 'canceled'
				: matrixCase.expect === 'stopped'
					? result.result.status === 'canceled'
					: matrixCase.expect === 'error'
						? result.error !== undefined
						: result.error !== undefined && emulator.requests.length === 0;
		return {
			matrixCase,
			outcome,
			asExpected,
			apiRequests,
			storageRequests,
			seconds,
			documentsCreated: created.length,
			documentsLost: lost,
			documentsDuplicated: duplicated,
			keyLeaks: keyLeaks(emulator, KEY).length,
			keyShown: shown.includes(KEY),
			waits: [...clock.sleeps],
			peakRssMiB,
			insideAnnouncedWaits: requestsInsideAnnouncedWaits(emulator),
		};
	} finally {
		await emulator.close();
	}
}

function formatSeconds(seconds: number): string {
	return seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1);
}

function formatWaits(waits: number[]): string {
	if (waits.length === 0) return '–';
	const max = Math.max(...waits);
	return `${waits.length} (max ${formatSeconds(max / 1000)} s)`;
}

/**
 * Characters a reader cannot see, or that make tools take the file for binary: controls (C0 such
 * as NUL, DEL, C1), format characters (zero-width, bidirectional overrides), line and paragraph
 * separators, and lone surrogates. The hostile inputs of the matrix carry them, and error messages
 * quote those inputs.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

/** `text` with every unprintable character written as its escape: NUL as `\x00`, U+202E as `\u202E`. */
export function printable(text: string): string {
	return text.replace(UNPRINTABLE, (character) => {
		const code = character.codePointAt(0) ?? 0;
		const hex = code.toString(16).toUpperCase();
		if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
		return code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
	});
}

/** Text as one cell of a Markdown table: printable, and its pipes escaped. */
export function tableCell(text: string): string {
	return printable(text).replace(/\|/g, '\\|');
}

/** The Markdown table of a group of results. */
export function markdownTable(results: CaseResult[]): string {
	const rows = [
		'| # | Case | Operation | Expected | Outcome | API req. | Storage req. | Time (s) | Waits | Peak RSS + (MiB) | Sent in a 429 pause | Docs created | Lost | Duplicated | Key outside API host | As expected |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	results.forEach((result, index) => {
		const c = result.matrixCase;
		rows.push(
			`| ${index + 1} | ${tableCell(c.name)} | ${tableCell(c.operation)} | ${c.expect} | ${tableCell(result.outcome)} | ${result.apiRequests} | ${result.storageRequests} | ${formatSeconds(result.seconds)} | ${formatWaits(result.waits)}${c.bound ? `; bound: ${tableCell(c.bound)}` : ''} | ${Math.round(result.peakRssMiB)} | ${result.insideAnnouncedWaits} | ${result.documentsCreated} | ${result.documentsLost} | ${result.documentsDuplicated} | ${result.keyLeaks + (result.keyShown ? 1 : 0)} | ${result.asExpected ? 'yes' : '**no**'} |`,
		);
	});
	return rows.join('\n');
}

export interface Totals {
	cases: number;
	asExpected: number;
	lost: number;
	duplicated: number;
	keyLeaks: number;
	keyShown: number;
	refusedLocally: number;
	refusedLocallyExpected: number;
}

export function totals(results: CaseResult[]): Totals {
	return {
		cases: results.length,
		asExpected: results.filter((result) => result.asExpected).length,
		lost: results.reduce((sum, result) => sum + result.documentsLost, 0),
		duplicated: results.reduce((sum, result) => sum + result.documentsDuplicated, 0),
		keyLeaks: results.reduce((sum, result) => sum + result.keyLeaks, 0),
		keyShown: results.filter((result) => result.keyShown).length,
		refusedLocally: results.filter(
			(result) => result.matrixCase.expect === 'refused before any request' && result.asExpected,
		).length,
		refusedLocallyExpected: results.filter((result) => result.matrixCase.expect === 'refused before any request').length,
	};
}
