/**
 * Binary data in and out of the engine, in n8n's two local modes:
 * - 'default': the bytes travel base64-encoded inside the item (memory mode);
 * - 'filesystem': the bytes sit in n8n-core's binary data storage and the item carries an id.
 */
import { copyBinaryFile, prepareBinaryData } from 'n8n-core';
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';

import { HARNESS_WORKFLOW_ID } from './additional-data';
import type { BinaryDataMode } from './container';
import { getBinaryDataService, useBinaryDataMode } from './container';

const MIME_TYPES: Record<string, string> = {
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
	'.csv': 'text/csv',
	'.json': 'application/json',
	'.zip': 'application/zip',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.tif': 'image/tiff',
	'.tiff': 'image/tiff',
	'.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	'.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** A MIME type from a file name's extension (application/octet-stream when unknown). */
export function mimeTypeOf(fileName: string): string {
	return MIME_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

export interface BinaryItemSource {
	/** read the bytes from this file (streamed into storage in filesystem mode) */
	filePath?: string;
	/** or take them from this buffer */
	buffer?: Buffer;
	/** defaults to the file's base name; required with `buffer` */
	fileName?: string;
	/** defaults from the file name's extension */
	mimeType?: string;
	/** binary property name, default `data` */
	propertyName?: string;
	json?: IDataObject;
	mode?: BinaryDataMode;
}

/** Where input items' binaries are stored in filesystem mode (an execution before the run). */
const INPUT_EXECUTION_ID = 'harness-input';

/**
 * Stores bytes the way n8n nodes do (n8n-core's copyBinaryFile / prepareBinaryData) in the
 * given mode and returns the IBinaryData to put in an item.
 */
export async function createBinaryData(source: BinaryItemSource): Promise<IBinaryData> {
	const mode = source.mode ?? 'default';
	await useBinaryDataMode(mode);
	if (source.filePath !== undefined) {
		const fileName = source.fileName ?? basename(source.filePath);
		return await copyBinaryFile(
			HARNESS_WORKFLOW_ID,
			INPUT_EXECUTION_ID,
			source.filePath,
			fileName,
			source.mimeType ?? mimeTypeOf(fileName),
		);
	}
	if (source.buffer === undefined || source.fileName === undefined) {
		throw new Error('createBinaryData needs filePath, or buffer and fileName');
	}
	return await prepareBinaryData(
		source.buffer,
		INPUT_EXECUTION_ID,
		HARNESS_WORKFLOW_ID,
		source.fileName,
		source.mimeType ?? mimeTypeOf(source.fileName),
	);
}

/** An input item `{ json, binary: { [propertyName]: ... } }` holding the given bytes. */
export async function createBinaryItem(source: BinaryItemSource): Promise<INodeExecutionData> {
	const binary = await createBinaryData(source);
	return { json: source.json ?? {}, binary: { [source.propertyName ?? 'data']: binary } };
}

/** Reads an output binary back as a stream, whichever mode stored it. */
export async function readBinaryStream(binary: IBinaryData): Promise<Readable> {
	if (binary.id) {
		const service = await getBinaryDataService('filesystem');
		return await service.getAsStream(binary.id);
	}
	return Readable.from([Buffer.from(binary.data, BINARY_ENCODING)]);
}

/** Reads an output binary back into a Buffer, whichever mode stored it. */
export async function readBinary(binary: IBinaryData): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of await readBinaryStream(binary)) {
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
	}
	return Buffer.concat(chunks);
}

/** Where filesystem mode keeps a binary on disk (for byte-range reads in tests), or undefined. */
export async function binaryFilePath(binary: IBinaryData): Promise<string | undefined> {
	if (!binary.id) return undefined;
	const service = await getBinaryDataService('filesystem');
	return service.getPath(binary.id);
}
