/**
 * Ids the service hands back are checked as ids before the node puts them into a request path:
 * an id ".." would turn GET /files/../values into another endpoint of the same host, and
 * encoding does not help (".." needs none). A bad id fails clearly, says where it came from,
 * and nothing is requested with it.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, pollTrigger } from '../../dev/harness';
import { seedFile } from './file-operations-support';
import { runOperation } from './run-operation';
import { credentialsFor, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

/** Ids a hostile or broken service could answer: none is a UUID. */
const BAD_IDS = ['..', '../values', '%2e%2e', 'a/b', '', 'not-a-uuid'];

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

/** API requests (method and path below /prod/v1), oldest first. */
function pathsRequested(): string[] {
	return emulator.requests.filter((entry) => entry.host === 'api').map((entry) => `${entry.method} ${entry.path.replace(/^\/prod\/v1/, '')}`);
}

/** No request path has a segment the service chose that is not an id. */
function expectNoPathFrom(badId: string): void {
	for (const path of pathsRequested()) {
		const segments = path.split(' ')[1].split('?')[0].split('/');
		expect(segments).not.toContain('..');
		if (badId !== '') expect(segments).not.toContain(encodeURIComponent(badId));
	}
}

describe('upload IDs', () => {
	it.each(BAD_IDS)('an upload answer with uploadId %j fails naming the upload answer, before any byte is sent', async (badId) => {
		emulator.faults.editAnswerNext({ method: 'POST', path: '/files/upload', edit: (body) => ({ ...(body as object), uploadId: badId }) });

		const { error } = await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', options: { pollInterval: 0.5 } }, {
			inputItems: [await textItem()],
		});

		expect(error?.message).toContain(`The upload request's answer (POST /files/upload) gave the upload ID ${JSON.stringify(badId)}`);
		expect(error?.message).toContain('expected a UUID');
		expect(emulator.requests.filter((entry) => entry.host === 'storage')).toEqual([]);
		expect(pathsRequested()).toEqual(['POST /files/upload']);
	});

	it('a multipart upload answer with uploadId ".." is never put into the status path', async () => {
		emulator.faults.editAnswerNext({ method: 'POST', path: '/files/upload/multipart', edit: (body) => ({ ...(body as object), uploadId: '..' }) });

		const { error } = await runOperation(
			emulator,
			'file',
			'upload',
			{ binaryPropertyName: 'data', options: { pollInterval: 0.5, multipart: 'always' } },
			{ inputItems: [await textItem()] },
		);

		expect(error?.message).toContain('gave the upload ID ".."');
		expect(error?.message).toContain('expected a UUID');
		expectNoPathFrom('..');
		expect(pathsRequested().filter((path) => path.startsWith('GET /uploads'))).toEqual([]);
	});
});

describe('file IDs', () => {
	it.each(BAD_IDS)('a processed file with fileId %j in the upload status fails naming the upload status; its values are not asked for', async (badId) => {
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/uploads\//,
			count: 100,
			edit: (body) => {
				const status = body as { files: Array<Record<string, unknown>> };
				status.files = status.files.map((file) => ({ ...file, fileId: badId }));
				return status;
			},
		});

		const { error } = await runOperation(emulator, 'file', 'upload', { binaryPropertyName: 'data', options: { pollInterval: 0.5 } }, {
			inputItems: [await textItem()],
		});

		expect(error?.message).toContain(`The upload status (GET /uploads/{uploadId}) gave the file ID ${JSON.stringify(badId)}`);
		expect(error?.message).toContain('expected a UUID');
		expectNoPathFrom(badId);
		expect(pathsRequested().filter((path) => path.includes('/values'))).toEqual([]);
	});

	it('without values, such a file is output as answered (no path is built from it)', async () => {
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: /\/uploads\//,
			count: 100,
			edit: (body) => {
				const status = body as { files: Array<Record<string, unknown>> };
				status.files = status.files.map((file) => ({ ...file, fileId: '..' }));
				return status;
			},
		});

		const { items, error } = await runOperation(
			emulator,
			'file',
			'upload',
			{ binaryPropertyName: 'data', includeExtractedValues: false, options: { pollInterval: 0.5 } },
			{ inputItems: [await textItem()] },
		);

		expect(error).toBeUndefined();
		expect(items[0].json.fileId).toBe('..');
		expectNoPathFrom('..');
	});

	it('the trigger\'s test event with Include Extracted Values: a listed file with fileId ".." fails naming where the ID came from', async () => {
		await seedFile(emulator);
		emulator.faults.editAnswerNext({
			method: 'GET',
			path: '/files',
			edit: (body) => {
				const list = body as { files: Array<Record<string, unknown>> };
				list.files = list.files.map((file) => ({ ...file, fileId: '..' }));
				return list;
			},
		});

		const { error } = await pollTrigger({
			type: 'documentExtractionTrigger',
			parameters: { event: 'fileProcessed', options: { includeValues: true } },
			credentials: credentialsFor(emulator),
			mode: 'manual',
		});

		expect(error?.message).toContain('A file record the service answered gave the file ID ".."');
		expect(error?.message).toContain('expected a UUID');
		expectNoPathFrom('..');
		expect(pathsRequested().filter((path) => path.includes('/values'))).toEqual([]);
	});
});
