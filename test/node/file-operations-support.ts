/**
 * What the File operation tests share: files uploaded into the emulator over its HTTP API, and a
 * runner for one File operation through the n8n engine.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import { uploadAndGetFile } from '../emulator/test-helpers';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import type { OperationRunOptions } from './run-operation';
import { runOperation } from './run-operation';

export interface SeededFile {
	fileId: string;
	fileName: string;
	fileStoragePath: string;
	createdAt: string;
	[key: string]: unknown;
}

/** Uploads one document through the emulator's API (not the node) and returns its file record. */
export async function seedFile(
	emulator: Emulator,
	fileName: string = INVOICE_FILE_NAME,
	content: string | Buffer = invoiceText(),
	fileType = 'text/plain',
): Promise<SeededFile> {
	return (await uploadAndGetFile(emulator, fileName, content, { fileType })) as SeededFile;
}

/** Uploads `count` small text files named `${prefix}-N.txt`, oldest first. */
export async function seedManyFiles(emulator: Emulator, count: number, prefix = 'note'): Promise<SeededFile[]> {
	// One at a time: the last file seeded must be the newest, which concurrent uploads do not guarantee.
	const files: SeededFile[] = [];
	for (let n = 1; n <= count; n++) {
		files.push(await seedFile(emulator, `${prefix}-${n}.txt`, `Note number ${n}\nTotal Amount: ${n}`));
	}
	return files;
}

/** The emulator's next answer to GET /files/{fileId}/values holds exactly `fields` (in its one form record). */
export function answerValuesFields(emulator: Emulator, fields: unknown[]): void {
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: /\/values$/,
		edit: (body) => {
			const answer = body as { values: { formValues: Array<{ fields: unknown[] }> } };
			answer.values.formValues[0].fields = fields;
			return answer;
		},
	});
}

/** The File resource locator set "By ID". */
export function byId(fileId: string): IDataObject {
	return { __rl: true, mode: 'id', value: fileId };
}

/** Runs `resource: file`, `operation` with `parameters` through the engine against the emulator. */
export async function runFileOperation(
	emulator: Emulator,
	operation: string,
	parameters: IDataObject,
	options: OperationRunOptions = {},
) {
	return await runOperation(emulator, 'file', operation, parameters, options);
}

/** Polls `condition` every few milliseconds until it holds (or fails the test after `timeoutMs`). */
export async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}
