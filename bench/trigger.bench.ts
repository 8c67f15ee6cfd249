/**
 * Trigger benchmark: the first poll over a backlog of processed files (Start From a date), an idle
 * poll, and the static data the trigger keeps, for both events, through n8n-core's poll context
 * against the emulator over loopback HTTP.
 *
 *   npm run bench:trigger [-- --files 10000 --values-files 1000]
 *
 * Baseline, measured in the same run: the same list requests sent with plain fetch (page 1..N of
 * the backlog, no engine, no trigger), so the ratio shows what the engine and the trigger add.
 * The emulator runs in this process; its work is in both the baseline and the trigger figures.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEEDED_KEYS, startEmulator } from '../dev/emulator';
import type { Emulator } from '../dev/emulator';
import { addFiles } from '../dev/emulator/bulk-files';
import { credentialsFor } from '../dev/emulator/client';
import { pollTrigger } from '../dev/harness';
import { numberFlag } from './args';
import { printTable } from './table';

const FILES = numberFlag('files', 10_000);
const VALUES_FILES = numberFlag('values-files', 1_000);
const PAGE_SIZE = 100;
const DAY = 24 * 60 * 60 * 1000;

const table = (title: string, header: string[], rows: Array<Array<string | number>>) => printTable(title, header, rows);

function listRequests(emulator: Emulator): number {
	return emulator.requests.filter((entry) => entry.method === 'GET' && entry.path === '/prod/v1/files').length;
}

function apiRequests(emulator: Emulator): number {
	return emulator.requests.filter((entry) => entry.host === 'api').length;
}

async function poll(emulator: Emulator, parameters: IDataObject, staticData: IDataObject) {
	emulator.requests.length = 0;
	const started = performance.now();
	const result = await pollTrigger({
		type: 'documentExtractionTrigger',
		parameters: parameters as never,
		credentials: credentialsFor(emulator),
		staticData,
	});
	const ms = performance.now() - started;
	if (result.error) throw result.error;
	return { result, ms, lists: listRequests(emulator), requests: apiRequests(emulator) };
}

/** The baseline: the backlog's pages read with plain fetch, as many requests as the trigger sent. */
async function rawPaging(emulator: Emulator, requests: number, startDate: string): Promise<number> {
	const started = performance.now();
	for (let page = 1; page <= requests; page++) {
		const query = new URLSearchParams({ createdAfter: startDate, sortBy: 'createdAt', sortOrder: 'ASC', page: String(page), limit: String(PAGE_SIZE) });
		const response = await fetch(`${emulator.apiUrl}/prod/v1/files?${query}`, { headers: { 'x-api-key': SEEDED_KEYS.readWrite } });
		await response.json();
	}
	return performance.now() - started;
}

async function main(): Promise<void> {
	const emulator = await startEmulator({ processingDelayMs: 0, requestLogLimit: 100_000 });
	try {
		const start = Math.floor(Date.now() / 1000) * 1000 - 7 * DAY;
		const startDate = new Date(start).toISOString();
		addFiles(emulator.state, FILES, { createdAtMs: (i) => start + i * 10 });
		// Warm-up: loads the package and the engine once, outside the figures.
		await poll(emulator, { event: 'fileProcessed' }, {});

		const rows: Array<Array<string | number>> = [];
		const ratios: Array<Array<string | number>> = [];
		for (const event of ['fileProcessed', 'fileUpdated']) {
			// The whole backlog in one poll, as before Max Documents per Poll (default 1,000) existed.
			const parameters = { event, startFrom: 'date', startDate, options: { maxDocumentsPerPoll: FILES } };
			const first = await poll(emulator, parameters, {});
			const emitted = first.result.items.length;
			const idle = await poll(emulator, parameters, first.result.staticData);
			const baselineMs = await rawPaging(emulator, first.lists, startDate);
			rows.push([
				event,
				`first poll, ${FILES} files`,
				emitted,
				first.lists,
				Math.ceil(FILES / PAGE_SIZE),
				first.requests,
				first.ms.toFixed(0),
				JSON.stringify(first.result.staticData).length,
			]);
			rows.push([event, 'idle poll', idle.result.items.length, idle.lists, 1, idle.requests, idle.ms.toFixed(1), JSON.stringify(idle.result.staticData).length]);
			ratios.push([event, first.lists, baselineMs.toFixed(0), first.ms.toFixed(0), (first.ms / baselineMs).toFixed(2)]);
		}

		// Include Extracted Values: one values request per file on top of the list requests.
		const valuesEmulator = await startEmulator({ processingDelayMs: 0, requestLogLimit: 100_000 });
		try {
			addFiles(valuesEmulator.state, VALUES_FILES, { createdAtMs: (i) => start + i * 10 });
			const first = await poll(valuesEmulator, { event: 'fileProcessed', startFrom: 'date', startDate, options: { includeValues: true } }, {});
			rows.push([
				'fileProcessed',
				`first poll, ${VALUES_FILES} files, with values`,
				first.result.items.length,
				first.lists,
				Math.ceil(VALUES_FILES / PAGE_SIZE),
				first.requests,
				first.ms.toFixed(0),
				JSON.stringify(first.result.staticData).length,
			]);
		} finally {
			await valuesEmulator.close();
		}

		table(
			`Document Extraction Trigger, page size ${PAGE_SIZE} (each page after the first repeats the one file the cursor stands on)`,
			['event', 'poll', 'items', 'list requests', 'ceil(files/page)', 'API requests', 'wall ms', 'static data bytes'],
			rows,
		);
		table(
			'First poll against the same list requests sent with plain fetch (same run, same emulator)',
			['event', 'list requests', 'plain fetch ms', 'trigger ms', 'trigger / plain'],
			ratios,
		);
	} finally {
		await emulator.close();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
