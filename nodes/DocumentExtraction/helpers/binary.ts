import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import type { PayloadSource } from '../../shared/api';
import { BINARY_LIMITS, UPLOAD_LIMITS } from '../../shared/limits';
import { invalidParameter } from '../../shared/parameters';

/** An input binary, ready to be sent: its name, type and size, and a way to open its bytes. */
export interface BinarySource {
	fileName: string;
	mimeType: string;
	fileSize: number;
	/** Reads the bytes; a stream from n8n's binary storage when the binary is stored there. */
	open: PayloadSource;
	/** n8n's binary data id when the bytes live in binary storage (filesystem, database, S3). */
	binaryDataId?: string;
	/** Reads the bytes range by range, in order (multipart parts), never the whole file at once. */
	openRanges: () => RangeReader;
}

/**
 * Reads adjacent byte ranges of a binary from its start, one after the other. Calls may overlap:
 * they are served in the order they were made. Only the range being read is held in memory.
 */
export interface RangeReader {
	/**
	 * The bytes [start, start + size). `start` must be where the previous range ended. `into`, a
	 * buffer of at least `size` bytes, is filled and returned (as a view) instead of a new one.
	 */
	read(start: number, size: number, into?: Buffer): Promise<Buffer>;
	/** Releases the underlying stream; safe to call more than once. */
	close(): void;
}

/**
 * Size of the reads from n8n's binary storage that ranges are filled from. The pieces are copied,
 * not sent as they are: a piece sent as part of a request body cannot be freed safely (the socket
 * may still be writing from it), and left to the collector 1 GiB of them costs more than the copy
 * and holds memory past the part bound (docs/large-files.md, "Where the CPU goes").
 */
const STORAGE_READ_CHUNK_BYTES = UPLOAD_LIMITS.storageReadChunkBytes;

/**
 * Frees the memory of a piece read from storage at once, once it has been copied: every read
 * gets a fresh buffer, and left to the garbage collector those buffers made V8 run a full
 * collection of n8n's heap every few dozen MiB (measured on Node 24 in the engine: reading 256 MiB
 * and copying it into part buffers took 1.2 s of CPU and 7 full collections; freed like this,
 * 0.1 s and none). Only a buffer that is this piece's alone is freed (no other view can see it);
 * runtimes without ArrayBuffer.prototype.transfer (Node 20, below engines.node: a large upload
 * there costs many full collections, docs/large-files.md) leave it to the collector.
 */
function freePiece(piece: Buffer): void {
	const memory = piece.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
	if (typeof memory.transfer !== 'function') return;
	if (piece.byteOffset !== 0 || piece.byteLength !== memory.byteLength) return;
	memory.transfer(0);
}

type ReadFailure = (message: string) => NodeOperationError;

function bufferRangeReader(buffer: Buffer, fail: ReadFailure): RangeReader {
	return {
		async read(start, size) {
			if (start < 0 || start + size > buffer.length) {
				throw fail(`bytes ${start}-${start + size - 1} lie outside the binary's ${buffer.length} bytes`);
			}
			return buffer.subarray(start, start + size);
		},
		close() {},
	};
}

/**
 * Whether every piece that a stream of this binary yields is a fresh read that nothing else holds.
 * n8n's filesystem mode reads the file with a read stream of its own; other modes (S3, the
 * database) may hand out memory that something else still uses, so their pieces are never freed.
 */
function readsFreshPieces(binaryDataId: string): boolean {
	return binaryDataId.split(':', 1)[0].startsWith('filesystem');
}

function streamRangeReader(
	open: () => Promise<NodeJS.ReadableStream>,
	fail: ReadFailure,
	freeEachPiece: boolean,
): RangeReader {
	let stream: NodeJS.ReadableStream | undefined;
	let chunks: AsyncIterator<Buffer | string> | undefined;
	let pending: Buffer = Buffer.alloc(0);
	let position = 0;
	let queue: Promise<unknown> = Promise.resolve();

	/** The piece being consumed, whole, so that it can be freed once all of it was copied. */
	let piece: Buffer | undefined;

	const readNext = async (start: number, size: number, into?: Buffer): Promise<Buffer> => {
		if (start !== position) {
			throw fail(`bytes from ${start} were asked for while the binary is being read at byte ${position}`);
		}
		if (!chunks) {
			stream = await open();
			chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
		}
		const target = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafe(size);
		let filled = 0;
		while (filled < size) {
			if (pending.length === 0) {
				const next = await chunks.next();
				if (next.done) {
					throw fail(`the stored binary ended after ${position + filled} bytes; ${start + size} were expected`);
				}
				piece = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
				pending = piece;
			}
			const taken = Math.min(size - filled, pending.length);
			pending.copy(target, filled, 0, taken);
			pending = pending.subarray(taken);
			filled += taken;
			if (pending.length === 0 && piece) {
				if (freeEachPiece && piece.byteLength <= STORAGE_READ_CHUNK_BYTES) freePiece(piece);
				piece = undefined;
			}
		}
		position += size;
		return target;
	};

	return {
		async read(start, size, into) {
			const result = queue.then(async () => await readNext(start, size, into));
			queue = result.catch(() => undefined);
			return await result;
		},
		close() {
			const readable = stream as { destroy?: () => void } | undefined;
			readable?.destroy?.();
			pending = Buffer.alloc(0);
		},
	};
}

/** The Input Binary Field names no binary of the item: say which the item has, if any. */
function missingBinary(context: IExecuteFunctions, itemIndex: number, binaryPropertyName: string): NodeOperationError {
	const fields = Object.keys(context.getInputData()[itemIndex]?.binary ?? {});
	return invalidParameter(
		context,
		itemIndex,
		'Input Binary Field',
		binaryPropertyName,
		fields.length > 0
			? `the name of a binary field of the input item, which has: ${fields.join(', ')}`
			: 'the name of a binary field of the input item, which has no binary data (the node before this one must output a file)',
	);
}

/**
 * Locates the binary of an item without reading it into memory when n8n keeps it in binary
 * storage: the size comes from the stored metadata and every open() starts a fresh stream.
 */
export async function binarySource(
	context: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
): Promise<BinarySource> {
	let binary: IBinaryData;
	try {
		binary = context.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	} catch {
		throw missingBinary(context, itemIndex, binaryPropertyName);
	}
	const fileName = binary.fileName ?? '';
	const mimeType = binary.mimeType || 'application/octet-stream';

	const fail: ReadFailure = (message) =>
		new NodeOperationError(
			context.getNode(),
			`Could not read the binary "${binaryPropertyName}" of item ${itemIndex}: ${message}`,
			{ itemIndex },
		);

	if (binary.id) {
		const binaryDataId = binary.id;
		const metadata = await context.helpers.getBinaryMetadata(binaryDataId);
		const fileSize = Number(metadata.fileSize ?? binary.bytes);
		if (!Number.isFinite(fileSize)) {
			throw new NodeOperationError(
				context.getNode(),
				`The size of the binary "${binaryPropertyName}" of item ${itemIndex} is unknown`,
				{ itemIndex },
			);
		}
		return {
			fileName: fileName || metadata.fileName || '',
			mimeType: binary.mimeType || metadata.mimeType || mimeType,
			fileSize,
			binaryDataId,
			open: async () => ({
				body: await context.helpers.getBinaryStream(binaryDataId),
				contentLength: fileSize,
			}),
			openRanges: () =>
				streamRangeReader(
					async () => await context.helpers.getBinaryStream(binaryDataId, STORAGE_READ_CHUNK_BYTES),
					fail,
					readsFreshPieces(binaryDataId),
				),
		};
	}

	const buffer = Buffer.from(binary.data, BINARY_ENCODING);
	return {
		fileName,
		mimeType,
		fileSize: buffer.length,
		open: async () => ({ body: buffer, contentLength: buffer.length }),
		openRanges: () => bufferRangeReader(buffer, fail),
	};
}

/** Longest name given to a binary, in UTF-8 bytes: what common file systems accept. */
const MAX_FILE_NAME_BYTES = BINARY_LIMITS.maxFileNameBytes;
/** Longest extension kept whole when a name is cut ("." included). */
const MAX_KEPT_EXTENSION = BINARY_LIMITS.maxKeptExtensionLength;
/** Never kept in a name: control characters (line breaks, NUL), invisible format characters (bidi overrides), line and paragraph separators. */
const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const PATH_SEPARATOR = /[/\\]/;

function isSpaceOrDot(character: string): boolean {
	return character === '.' || character.trim() === '';
}

/** `text` without leading and trailing spaces and dots (a loop: a regular expression anchored at the end would backtrack). */
function trimSpacesAndDots(text: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && isSpaceOrDot(text[start])) start++;
	while (end > start && isSpaceOrDot(text[end - 1])) end--;
	return text.slice(start, end);
}

/** `name` cut to MAX_FILE_NAME_BYTES of UTF-8 on a character boundary, its extension kept. */
function capFileName(name: string): string {
	if (Buffer.byteLength(name, 'utf8') <= MAX_FILE_NAME_BYTES) return name;
	const dot = name.lastIndexOf('.');
	const extension = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION ? name.slice(dot) : '';
	let bytes = Buffer.byteLength(extension, 'utf8');
	let stem = '';
	for (const character of extension ? name.slice(0, dot) : name) {
		const size = Buffer.byteLength(character, 'utf8');
		if (bytes + size > MAX_FILE_NAME_BYTES) break;
		stem += character;
		bytes += size;
	}
	return stem + extension;
}

/**
 * The name a binary gets from a name the service gave (a file record's fileName): the one place
 * that turns service text into a binary file name. Control and invisible characters are removed
 * ("evil\r\nX-Injected: 1.html" would carry a header into whatever serves the file), folders are
 * dropped (only the part after the last "/" or "\" is kept), leading and trailing spaces and dots
 * are trimmed (so ".." is nothing) and the result is cut to 255 bytes, its extension kept. A name
 * that is nothing once cleaned, or no text at all, gives `fallback`.
 */
export function binaryFileName(name: unknown, fallback: string): string {
	if (typeof name !== 'string') return fallback;
	const parts = name.replace(UNSAFE_NAME_CHARACTERS, '').split(PATH_SEPARATOR);
	let base = '';
	for (let index = parts.length - 1; index >= 0 && base === ''; index--) base = parts[index].trim();
	const cleaned = capFileName(trimSpacesAndDots(base));
	return cleaned === '' ? fallback : cleaned;
}

/** A MIME type as a binary and the upload request carry it: type/subtype, optional parameters. */
export const MIME_TYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;
const MAX_MIME_TYPE_LENGTH = BINARY_LIMITS.maxMimeTypeLength;
const FALLBACK_MIME_TYPE = 'application/octet-stream';

/**
 * The MIME type of a binary from what the service said (the file record's, then the storage
 * answer's): the first that is a MIME type without control characters, else
 * application/octet-stream.
 */
export function binaryMimeType(...candidates: unknown[]): string {
	for (const candidate of candidates) {
		if (typeof candidate !== 'string' || candidate.length > MAX_MIME_TYPE_LENGTH) continue;
		UNSAFE_NAME_CHARACTERS.lastIndex = 0;
		if (MIME_TYPE_PATTERN.test(candidate) && !UNSAFE_NAME_CHARACTERS.test(candidate)) return candidate;
	}
	return FALLBACK_MIME_TYPE;
}
