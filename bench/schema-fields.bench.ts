/**
 * A file type's fields at scale: Update Values' field mapper (the method the editor's REST
 * endpoint calls) and its write, and typed values, for file types of 100, 2,000 and 5,000 fields
 * (of which every seventh from the eleventh on is hidden, so fewer are listed).
 *
 *   npm run bench:schema-fields
 *
 * Through n8n-core's engine (dev/harness) against the emulator over HTTP on 127.0.0.1, each figure
 * the median of several runs, with a baseline from the same run: the Document Types list of
 * Query (load options: one GET /file-type) for the mapper, Update Values typeVersion 1 (no field
 * check) for the write, Simplify without typing for typed values. What the real editor does with
 * such a list is in docs/dev/schema-fields.md.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEEDED_KEYS, addGeneratedFileType, startEmulator, type Emulator } from '../dev/emulator';
import { uploadToEmulator } from '../dev/emulator/client';
import { loadOptions, resourceMapping, runNode } from '../dev/harness';
import { simplifyFormValue } from '../nodes/shared/output/simplify';
import { typedFormValue } from '../nodes/shared/output/typed';
import { printTable } from './table';

const SIZES = [100, 2000, 5000];
const RUNS = 5;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** The median time of `runs` runs of `work`, after one run that warms it up. */
async function timed<T>(runs: number, work: () => Promise<T> | T): Promise<{ ms: number; last: T }> {
	const times: number[] = [];
	let last: T | undefined = await work();
	for (let run = 0; run < runs; run++) {
		const started = process.hrtime.bigint();
		last = await work();
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	return { ms: median(times), last: last as T };
}

async function main(): Promise<void> {
	const emulator: Emulator = await startEmulator({ processingDelayMs: 0 });
	const credentials = { documentExtractionApi: { apiKey: SEEDED_KEYS.readWrite, instance: 'default', baseUrl: emulator.apiUrl } };
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	try {
		const mapperRows: Array<Array<string | number>> = [];
		const writeRows: Array<Array<string | number>> = [];
		const typedRows: Array<Array<string | number>> = [];
		for (const size of SIZES) {
			const name = `Bench ${size}`;
			const { fileTypeId } = addGeneratedFileType(emulator, size, { name });
			await uploadToEmulator(emulator, SEEDED_KEYS.readWrite, `bench-${size}.txt`, Buffer.from(`Document Type: ${name}\nField 0001: hello\n`));
			await emulator.idle();
			const fileId = [...emulator.state.files.values()].find((file) => file.fileName === `bench-${size}.txt`)!.fileId;

			const baseline = await timed(RUNS, async () => await loadOptions({ type: 'documentExtraction', method: 'getFileTypes', credentials, parameters: { resource: 'query', operation: 'execute' } }));
			const mapper = async (parameters: IDataObject) =>
				await timed(RUNS, async () => {
					try {
						return await resourceMapping({ type: 'documentExtraction', method: 'getMappingFields', credentials, parameters: { resource: 'file', operation: 'updateValues', ...parameters } as never });
					} catch (error) {
						return { fields: [], error: (error as Error).message };
					}
				});
			const fromType = await mapper({ fieldsFrom: 'fileType', fileType: byId(fileTypeId) });
			const fromFile = await mapper({ fieldsFrom: 'file', fileId: byId(fileId) });
			const shown = fromType.last.fields.length ? `${fromType.last.fields.length}` : `refused (${String((fromType.last as { error?: string }).error).slice(0, 40)}…)`;
			mapperRows.push([String(size), shown, String(Buffer.byteLength(JSON.stringify(fromType.last))), fromType.ms, fromFile.ms, baseline.ms, `${(fromType.ms / baseline.ms).toFixed(1)}x`]);

			const write = async (typeVersion: number) =>
				await timed(RUNS, async () => {
					const { error } = await runNode({ type: 'documentExtraction', typeVersion, credentials, parameters: { resource: 'file', operation: 'updateValues', fileId: byId(fileId), inputMode: 'json', valuesJson: '{ "Field 0001": "written" }' } });
					if (error) throw error;
				});
			const v2 = await write(2);
			const v1 = await write(1);
			writeRows.push([String(size), v2.ms, v1.ms, `${(v2.ms / v1.ms).toFixed(2)}x`]);

			const form = emulator.state.files.get(fileId)!.formValues as unknown as IDataObject;
			const plain = await timed(200, () => simplifyFormValue(form));
			const typed = await timed(200, () => simplifyFormValue(typedFormValue(form)));
			typedRows.push([String(size), typed.ms, plain.ms, `${(typed.ms / plain.ms).toFixed(2)}x`]);
		}
		const ms = (value: number) => value.toFixed(1);
		printTable('Field mapper (getMappingFields, LoadOptionsContext) vs Document Types (one GET /file-type), median of 5', ['fields', 'listed', 'answer bytes', 'from file type ms', 'from file ms', 'baseline ms', 'ratio'], mapperRows, { format: ms });
		printTable('Update Values, one field by JSON: typeVersion 2 (checks the file first) vs 1, median of 5', ['fields', 'v2 ms', 'v1 ms', 'ratio'], writeRows, { format: ms });
		printTable('Simplify of one form, typed vs as sent, median of 200', ['fields', 'typed ms', 'as sent ms', 'ratio'], typedRows, { format: (value) => value.toFixed(2) });
	} finally {
		await emulator.close();
	}
}

main().catch((error: Error) => {
	console.error(error.stack ?? error.message);
	process.exitCode = 1;
});
