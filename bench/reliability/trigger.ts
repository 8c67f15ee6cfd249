/**
 * The trigger's cases of the reliability matrix: a service that answers the trigger's GET /files
 * with records it cannot use as sent (issue 34: a value 20,000 levels deep, a timestamp ahead of
 * n8n's clock, 20 KB ids, a timestamp with a 1 MB comment, a leap second), or fails and misbehaves
 * between polls. Each case polls the Document Extraction Trigger through n8n-core's poll context
 * against a fresh emulator, carrying the static data from poll to poll as n8n does, and counts the
 * documents that must come out: lost (never emitted) and duplicated (emitted more than once).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import { SEEDED_KEYS, keyLeaks, startEmulator } from '../../dev/emulator';
import { addFiles, finishProcessing } from '../../dev/emulator/bulk-files';
import { credentialsFor } from '../../dev/emulator/client';
import { deepJson, rawValue, rewriteListedFiles } from '../../dev/emulator/hostile-lists';
import { pollTrigger } from '../../dev/harness';
import type { CaseResult, MatrixCase } from './matrix';
import { startRssMeter } from './rss-meter';

type Event = 'fileProcessed' | 'fileUpdated';

const KEY = SEEDED_KEYS.readWrite;
const MINUTE = 60_000;
/** The trigger's documented bound on its static data (docs/trigger.md, Bounds). */
const STATIC_DATA_BOUND = 300_000;

interface TriggerCase {
	name: string;
	event: Event;
	/** Seeds the files and the fault; returns the ids of the files that must come out once each. */
	setup(emulator: Emulator, t0: number): string[];
	/** Acts after poll `index` (from 0); returns more files that must come out. */
	between?(emulator: Emulator, index: number): string[];
	polls?: number;
}

const ids = (files: Array<{ fileId: string }>) => files.map((file) => file.fileId);

function stampKey(event: Event): 'createdAt' | 'updatedAt' {
	return event === 'fileProcessed' ? 'createdAt' : 'updatedAt';
}

function bothEvents(make: (event: Event) => TriggerCase): TriggerCase[] {
	return [make('fileProcessed'), make('fileUpdated')];
}

const CASES: TriggerCase[] = [
	...bothEvents((event) => ({
		name: 'a record with a value nested 20,000 levels deep among 11 files',
		event,
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 11, { createdAtMs: (i) => t0 + i * 1000 });
			const raw = new Map<string, string>();
			const token = rawValue(deepJson(20_000), raw);
			rewriteListedFiles(emulator, (file) => (file.fileId === files[5].fileId ? { ...file, payload: token } : undefined), raw);
			return ids(files);
		},
	})),
	...bothEvents((event) => ({
		name: 'a file dated now + 9 minutes, then 5 files dated now',
		event,
		setup(emulator, t0) {
			const before = addFiles(emulator.state, 3, { createdAtMs: (i) => t0 + i * 1000 });
			const ahead = addFiles(emulator.state, 1, { createdAtMs: () => Date.now() + 9 * MINUTE });
			return ids([...before, ...ahead]);
		},
		between(emulator, index) {
			return index === 0 ? ids(addFiles(emulator.state, 5, { createdAtMs: (i) => Date.now() + i })) : [];
		},
	})),
	...bothEvents((event) => ({
		name: '1,000 files with 20 KB ids and a timestamp with a 1 MB comment',
		event,
		setup(emulator, t0) {
			const long = addFiles(emulator.state, 1_000, { createdAtMs: (i) => t0 + i, status: () => (event === 'fileProcessed' ? 'processing' : 'processed') });
			const commented = addFiles(emulator.state, 1, { createdAtMs: () => t0 + 2_000 });
			const after = addFiles(emulator.state, 10, { createdAtMs: (i) => t0 + 3_000 + i });
			const longIds = new Set(ids(long));
			const comment = `2024-01-01 00:00:00 (${'c'.repeat(1024 * 1024)})`;
			rewriteListedFiles(emulator, (file: IDataObject) => {
				if (longIds.has(String(file.fileId))) return { ...file, fileId: `${String(file.fileId)}${'x'.repeat(20 * 1024)}` };
				if (file.fileId === commented[0].fileId) return { ...file, [stampKey(event)]: comment };
				return undefined;
			});
			return ids([...commented, ...after]);
		},
	})),
	...bothEvents((event) => ({
		name: 'a file stamped 2024-01-01T00:00:60Z among 7 files',
		event,
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 7, { createdAtMs: (i) => t0 + i * 1000 });
			rewriteListedFiles(emulator, (file) => (file.fileId === files[3].fileId ? { ...file, [stampKey(event)]: '2024-01-01T00:00:60Z' } : undefined));
			return ids(files);
		},
	})),
	{
		name: 'a file in flight stamped 2024-01-01T00:00:60Z, finishing after the first poll',
		event: 'fileProcessed',
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 4, { createdAtMs: (i) => t0 + i * 1000 });
			const inFlight = addFiles(emulator.state, 1, { createdAtMs: () => t0 + 1_500, status: () => 'processing' });
			rewriteListedFiles(emulator, (file) => (file.fileId === inFlight[0].fileId ? { ...file, createdAt: '2024-01-01T00:00:60Z' } : undefined));
			return ids([...files, ...inFlight]);
		},
		between(emulator, index) {
			if (index === 0) finishProcessing(emulator.state, [...emulator.state.files.values()].filter((file) => file.status === 'processing'));
			return [];
		},
	},
	{
		name: 'a file listed with the id ".." among 5 files',
		event: 'fileProcessed',
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 6, { createdAtMs: (i) => t0 + i * 1000 });
			rewriteListedFiles(emulator, (file) => (file.fileId === files[2].fileId ? { ...file, fileId: '..' } : undefined));
			return ids(files.filter((_, i) => i !== 2));
		},
	},
	{
		name: 'the API key echoed in a record (as is and URL-encoded)',
		event: 'fileProcessed',
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 3, { createdAtMs: (i) => t0 + i * 1000 });
			rewriteListedFiles(emulator, (file) => (file.fileId === files[1].fileId ? { ...file, summary: `key ${KEY}`, referenceId: encodeURIComponent(KEY) } : undefined));
			return ids(files);
		},
	},
	...bothEvents((event) => ({
		name: '500 on every retry of the 2nd list request of the first poll (250 files)',
		event,
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 250, { createdAtMs: (i) => t0 + i * 1000 });
			let lists = 0;
			emulator.faults.editAnswerNext({
				method: 'GET',
				path: '/files',
				count: 1,
				edit: (body) => {
					lists += 1;
					if (lists === 1) emulator.faults.failNext({ method: 'GET', path: '/files', status: 500, count: 4 });
					return body;
				},
			});
			return ids(files);
		},
	})),
	{
		name: 'a list that ignores `page` (150 files at one timestamp), fixed after 2 polls',
		event: 'fileProcessed',
		setup(emulator, t0) {
			const files = addFiles(emulator.state, 150, { createdAtMs: () => t0 + 10 * MINUTE });
			emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 1_000 });
			return ids(files);
		},
		between(emulator, index) {
			if (index === 1) emulator.faults.clear();
			return [];
		},
		polls: 5,
	},
	{
		name: 'a recheck answer that leaves out a finished file but counts it',
		event: 'fileProcessed',
		setup(emulator, t0) {
			const done = addFiles(emulator.state, 2, { createdAtMs: (i) => t0 + i * 1000 });
			const inFlight = addFiles(emulator.state, 1, { createdAtMs: () => t0 + 3_000, status: () => 'processing' });
			return ids([...done, ...inFlight]);
		},
		between(emulator, index) {
			if (index !== 0) return [];
			finishProcessing(emulator.state, [...emulator.state.files.values()].filter((file) => file.status === 'processing'));
			emulator.faults.editAnswerNext({
				method: 'GET',
				path: '/files',
				count: 2,
				edit: (body) => ({ ...(body as IDataObject), files: [] }),
			});
			return [];
		},
	},
];

export const TRIGGER_CASES: Array<MatrixCase & { trigger: TriggerCase }> = CASES.map((trigger) => ({
	group: 'trigger',
	name: trigger.name,
	operation: `trigger.${trigger.event}`,
	expect: 'success',
	bound: `static data ${STATIC_DATA_BOUND.toLocaleString('en-US')} bytes`,
	trigger,
}));

/** Polls the trigger of one case against a fresh emulator and measures it. */
export async function runTriggerCase(matrixCase: MatrixCase & { trigger: TriggerCase }): Promise<CaseResult> {
	const { trigger } = matrixCase;
	const emulator = await startEmulator({ processingDelayMs: 0 });
	try {
		const t0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
		const expected = trigger.setup(emulator, t0);
		emulator.requests.length = 0;
		const started = performance.now();
		const rss = startRssMeter();
		let peakRssMiB = 0;
		let staticData: IDataObject = {};
		let maxBytes = 0;
		const items: INodeExecutionData[] = [];
		const shown: unknown[] = [];
		let lastError: Error | undefined;
		let warnings = 0;
		const polls = trigger.polls ?? 4;
		let apiRequests = 0;
		try {
			for (let index = 0; index < polls; index++) {
				const result = await pollTrigger({
					type: 'documentExtractionTrigger',
					parameters: { event: trigger.event, startFrom: 'date', startDate: new Date(t0).toISOString() },
					credentials: credentialsFor(emulator),
					staticData,
				});
				staticData = result.staticData;
				maxBytes = Math.max(maxBytes, Buffer.byteLength(JSON.stringify(staticData)));
				items.push(...result.items);
				lastError = result.error as Error | undefined;
				warnings += result.logs.filter((line) => line.level === 'warn').length;
				shown.push(result.items, result.error?.message, result.logs.map((line) => line.text), staticData);
				apiRequests += emulator.requests.filter((entry) => entry.host === 'api').length;
				emulator.requests.length = 0;
				expected.push(...(trigger.between?.(emulator, index) ?? []));
			}
		} finally {
			peakRssMiB = rss.stop();
		}
		const seconds = (performance.now() - started) / 1000;
		const counts = new Map<string, number>();
		for (const item of items) counts.set(String(item.json.fileId), (counts.get(String(item.json.fileId)) ?? 0) + 1);
		const lost = expected.filter((id) => !counts.has(id)).length;
		const duplicated = [...counts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
		const keyShown = JSON.stringify(shown).includes(KEY);
		const outcome = lastError
			? lastError.message.slice(0, 160)
			: `success (${items.length} items over ${polls} polls, static data at most ${maxBytes.toLocaleString('en-US')} bytes, ${warnings} warnings)`;
		return {
			matrixCase,
			outcome,
			asExpected: lastError === undefined && lost === 0 && duplicated === 0 && !keyShown && maxBytes <= STATIC_DATA_BOUND,
			apiRequests,
			storageRequests: 0,
			seconds,
			documentsCreated: expected.length,
			documentsLost: lost,
			documentsDuplicated: duplicated,
			keyLeaks: keyLeaks(emulator, KEY).length,
			keyShown,
			waits: [],
			peakRssMiB,
			insideAnnouncedWaits: 0,
		};
	} finally {
		await emulator.close();
	}
}
