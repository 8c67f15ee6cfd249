/**
 * Deterministic document extraction for the emulator, first step: text out of a stored file
 * (extractText; PDFs through a worker thread). The second step, schema fields out of the text,
 * is fill-fields.ts. The text forms it understands and the output shape are in EXTRACTION.md.
 */
import { open, stat } from 'fs/promises';
import { extname, join } from 'path';
import { Worker } from 'worker_threads';

/** Why a file yields no text. The message is the errorReason the upload status shows. */
export class ExtractionError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ExtractionError';
	}
}

export const EXTRACTION_ERRORS = {
	empty: 'The file is empty',
	noText: 'The file contains no text',
	notText: 'The file is not readable text',
	pdfUnreadable: 'The PDF could not be read',
	pdfPassword: 'The PDF is password-protected',
	pdfTooLarge: 'The PDF is too large to read',
	missing: 'The stored file could not be read',
} as const;

/** Text files are read up to this size; the rest is ignored. */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
export const MAX_PDF_BYTES = 128 * 1024 * 1024;
const PDF_TIMEOUT_MS = 60_000;

type Readable = 'pdf' | 'text' | 'none';

const TEXT_MIME_TYPES = new Set(['application/json', 'application/xml', 'application/csv', 'application/x-csv']);
const TEXT_EXTENSIONS = new Set(['.txt', '.text', '.csv', '.tsv', '.md', '.json', '.xml']);
const GENERIC_MIME_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

function readableKind(fileType: string, fileName: string): Readable {
	const mime = fileType.split(';')[0].trim().toLowerCase();
	if (mime === 'application/pdf' || mime === 'application/x-pdf') return 'pdf';
	if (mime.startsWith('text/') || TEXT_MIME_TYPES.has(mime)) return 'text';
	if (GENERIC_MIME_TYPES.has(mime)) {
		const extension = extname(fileName).toLowerCase();
		if (extension === '.pdf') return 'pdf';
		if (TEXT_EXTENSIONS.has(extension)) return 'text';
	}
	return 'none';
}

/**
 * The text of a stored file. Plain text and CSV are decoded (UTF-8, UTF-16 with BOM, else
 * Latin-1); PDFs go through pdfjs-dist. Types the emulator cannot read (images, Office files,
 * archives) give '' so that processing succeeds with every field null.
 * Throws ExtractionError for empty and unreadable files.
 */
export async function extractText(filePath: string, fileType: string, fileName: string): Promise<string> {
	let size: number;
	try {
		size = (await stat(filePath)).size;
	} catch {
		throw new ExtractionError(EXTRACTION_ERRORS.missing);
	}
	if (size === 0) throw new ExtractionError(EXTRACTION_ERRORS.empty);

	const kind = readableKind(fileType, fileName);
	if (kind === 'none') return '';
	if (kind === 'text') {
		const text = decodeText(await readHead(filePath, MAX_TEXT_BYTES));
		if (text.trim() === '') throw new ExtractionError(EXTRACTION_ERRORS.noText);
		return text;
	}

	const head = await readHead(filePath, 1024);
	if (!head.includes('%PDF-')) throw new ExtractionError(EXTRACTION_ERRORS.pdfUnreadable);
	if (size > MAX_PDF_BYTES) throw new ExtractionError(EXTRACTION_ERRORS.pdfTooLarge);
	return pdfText(await readHead(filePath, size));
}

async function readHead(filePath: string, maxBytes: number): Promise<Buffer> {
	let handle;
	try {
		handle = await open(filePath, 'r');
	} catch {
		throw new ExtractionError(EXTRACTION_ERRORS.missing);
	}
	try {
		const buffer = Buffer.alloc(Math.min(maxBytes, (await handle.stat()).size));
		let filled = 0;
		while (filled < buffer.length) {
			const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
			if (bytesRead === 0) break;
			filled += bytesRead;
		}
		return buffer.subarray(0, filled);
	} finally {
		await handle.close();
	}
}

function decodeText(bytes: Buffer): string {
	let text: string;
	if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes);
	else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes);
	else {
		if (bytes.includes(0)) throw new ExtractionError(EXTRACTION_ERRORS.notText);
		try {
			// stream: true tolerates a multi-byte character cut by the size cap
			text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
		} catch {
			text = bytes.toString('latin1');
		}
	}
	const controlCharacters = text.match(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufffd]/g)?.length ?? 0;
	if (controlCharacters > text.length * 0.1) throw new ExtractionError(EXTRACTION_ERRORS.notText);
	return text;
}

// ---------------------------------------------------------------------------------------
// PDF text through a shared worker thread (see pdf-text-worker.mjs).

interface PdfJob {
	resolve: (text: string) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
}

interface PdfWorker {
	worker: Worker;
	jobs: Map<number, PdfJob>;
}

let currentPdfWorker: PdfWorker | undefined;
let nextJobId = 1;

function startPdfWorker(): PdfWorker {
	const state: PdfWorker = {
		worker: new Worker(join(__dirname, 'pdf-text-worker.mjs'), { resourceLimits: { maxOldGenerationSizeMb: 1024 } }),
		jobs: new Map(),
	};
	const { worker, jobs } = state;
	worker.on('message', (message: { id: number; text?: string; error?: { name: string; message: string } }) => {
		const job = jobs.get(message.id);
		if (!job) return;
		jobs.delete(message.id);
		clearTimeout(job.timer);
		if (jobs.size === 0) worker.unref();
		if (message.error) {
			job.reject(new ExtractionError(message.error.name === 'PasswordException' ? EXTRACTION_ERRORS.pdfPassword : EXTRACTION_ERRORS.pdfUnreadable));
		} else {
			job.resolve(message.text ?? '');
		}
	});
	const retire = () => {
		if (currentPdfWorker === state) currentPdfWorker = undefined;
		for (const job of jobs.values()) {
			clearTimeout(job.timer);
			job.reject(new ExtractionError(EXTRACTION_ERRORS.pdfUnreadable));
		}
		jobs.clear();
	};
	// 'error' covers a crash or an out-of-memory kill of the worker
	worker.on('error', retire);
	worker.on('exit', retire);
	worker.unref();
	return state;
}

function pdfText(bytes: Buffer): Promise<string> {
	currentPdfWorker ??= startPdfWorker();
	const state = currentPdfWorker;
	const id = nextJobId++;
	const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return new Promise<string>((resolve, reject) => {
		const timer = setTimeout(() => {
			// A PDF that keeps pdfjs busy this long counts as unreadable; the worker is replaced.
			state.jobs.delete(id);
			reject(new ExtractionError(EXTRACTION_ERRORS.pdfUnreadable));
			if (currentPdfWorker === state) currentPdfWorker = undefined;
			void state.worker.terminate();
		}, PDF_TIMEOUT_MS);
		timer.unref();
		state.jobs.set(id, { resolve, reject, timer });
		state.worker.ref();
		state.worker.postMessage({ id, data }, [data.buffer as ArrayBuffer]);
	});
}

/** Stops the PDF worker (it is unref'd while idle, so this is only needed for a tidy shutdown). */
export async function stopPdfWorker(): Promise<void> {
	const state = currentPdfWorker;
	currentPdfWorker = undefined;
	if (state) await state.worker.terminate();
}
