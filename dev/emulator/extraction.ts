/**
 * Deterministic document extraction for the emulator: text out of a stored file
 * (extractText), then schema fields out of the text (fillFields).
 * The text forms it understands and the output shape are described in EXTRACTION.md.
 */
import { open, stat } from 'fs/promises';
import { extname, join } from 'path';
import { Worker } from 'worker_threads';

/** A schema field definition as the API describes it ("Schema field definition"). */
export interface SchemaFieldDefinition {
	id?: string;
	title: string;
	description?: string;
	/** `STRING`, `NUMBER`, `BOOLEAN`, `DATE`, `OBJECT` (lower case accepted). */
	type: string;
	format?: string | null;
	hidden?: boolean;
	internet_context?: boolean;
	fieldSuggestion?: { id: string; name: string };
	/** Child fields: an OBJECT field with a non-empty `items` is a table. */
	items?: SchemaFieldDefinition[] | null;
	value?: unknown;
	enumValues?: string[];
	inlineListType?: string;
}

/** A field of a file's form values (spec "File form values": fields[]). */
export interface ExtractedField {
	title: string;
	/** The schema type in lower case. */
	type: string;
	description: string;
	format: string | null;
	hidden: boolean;
	/** Typed value; for a table an array of rows keyed by column title; null when not found. */
	value: unknown;
	/** For a table: its columns (value null); otherwise null. */
	items: ExtractedField[] | null;
}

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

// ---------------------------------------------------------------------------------------
// Field filling

function normaliseTitle(title: string): string {
	return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

function isTable(field: SchemaFieldDefinition): boolean {
	return field.type.toUpperCase() === 'OBJECT' && Array.isArray(field.items) && field.items.length > 0;
}

function describeField(field: SchemaFieldDefinition, value: unknown): ExtractedField {
	return {
		title: field.title,
		type: field.type.toLowerCase(),
		description: field.description ?? '',
		format: field.format ?? null,
		hidden: field.hidden ?? false,
		value,
		items: isTable(field) ? (field.items as SchemaFieldDefinition[]).map((child) => describeField(child, null)) : null,
	};
}

/** Splits one CSV-like line into cells; quotes ("a, b" and "" inside quotes) are honoured. */
export function splitCells(line: string, delimiter: string): string[] {
	const cells: string[] = [];
	let cell = '';
	let quoted = false;
	let cellStarted = false;
	for (let index = 0; index < line.length; index++) {
		const character = line[index];
		if (quoted) {
			if (character === '"' && line[index + 1] === '"') {
				cell += '"';
				index++;
			} else if (character === '"') {
				quoted = false;
			} else {
				cell += character;
			}
		} else if (character === '"' && !cellStarted && cell.trim() === '') {
			quoted = true;
			cellStarted = true;
			cell = '';
		} else if (character === delimiter) {
			cells.push(cell.trim());
			cell = '';
			cellStarted = false;
		} else {
			cell += character;
			if (character.trim() !== '') cellStarted = true;
		}
	}
	cells.push(cell.trim());
	return cells;
}

function guessDelimiter(headerLine: string): string {
	if (headerLine.includes('\t')) return '\t';
	if (headerLine.includes(',')) return ',';
	if (headerLine.includes(';')) return ';';
	if (headerLine.includes('|')) return '|';
	return ',';
}

interface TableHeader {
	delimiter: string;
	/** For each column of the header, the child field it fills (undefined: ignored column). */
	columns: Array<SchemaFieldDefinition | undefined>;
	matched: number;
}

function readTableHeader(line: string, table: SchemaFieldDefinition): TableHeader {
	const delimiter = guessDelimiter(line);
	const children = new Map<string, SchemaFieldDefinition>();
	for (const child of table.items ?? []) {
		if (!children.has(normaliseTitle(child.title))) children.set(normaliseTitle(child.title), child);
	}
	const used = new Set<SchemaFieldDefinition>();
	const columns = splitCells(line, delimiter).map((cell) => {
		const child = children.get(normaliseTitle(cell));
		if (!child || used.has(child)) return undefined;
		used.add(child);
		return child;
	});
	return { delimiter, columns, matched: used.size };
}

/**
 * Converts one raw text value to the field's type; null when it cannot be converted.
 * Used for extraction and usable for user-supplied value updates.
 */
export function coerceFieldValue(raw: string, field: SchemaFieldDefinition): unknown {
	const text = raw.trim();
	if (text === '') return null;
	switch (field.type.toUpperCase()) {
		case 'NUMBER':
			return parseNumber(text);
		case 'DATE':
			return parseDate(text, field.format ?? null);
		case 'BOOLEAN':
			return parseBoolean(text);
		case 'OBJECT':
			return parseObject(text);
		default:
			return matchEnum(text, field.enumValues);
	}
}

function matchEnum(text: string, enumValues: string[] | undefined): string | null {
	if (!enumValues || enumValues.length === 0) return text;
	return enumValues.find((allowed) => normaliseTitle(allowed) === normaliseTitle(text)) ?? null;
}

function parseObject(text: string): Record<string, unknown> | null {
	try {
		const parsed: unknown = JSON.parse(text);
		return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
	} catch {
		return null;
	}
}

const CURRENCY_SYMBOLS = /[$€£¥₹₩₽¢₺₫฿₱]/g;

/** "1,234.50", "$12", "USD 1.234,50", "(12.00)", "-3", "12%" -> numbers; anything else null. */
export function parseNumber(raw: string): number | null {
	let text = raw.trim().replace(/[\u2212\u2012\u2013]/g, '-');
	let negative = false;
	if (/^\(.*\)$/.test(text)) {
		negative = true;
		text = text.slice(1, -1).trim();
	}
	text = text
		.replace(/^[A-Z]{3}(?=[\s\d$€£¥₹₩₽¢₺₫฿₱])/, '')
		.replace(/(?<=[\d\s])[A-Z]{3}$/, '')
		.replace(/^[A-Z]{1,2}(?=\$)/, '')
		.replace(CURRENCY_SYMBOLS, '')
		.trim();
	if (text.startsWith('-') || text.startsWith('+')) {
		negative = negative !== text.startsWith('-');
		text = text.slice(1).trim();
	}
	if (text.endsWith('-')) {
		negative = !negative;
		text = text.slice(0, -1).trim();
	}
	if (text.endsWith('%')) text = text.slice(0, -1).trim();
	text = text.replace(/[\s'\u00a0\u202f]/g, '');
	if (!/^\d[\d.,]*$/.test(text) && !/^[.,]\d+$/.test(text)) return null;

	const lastComma = text.lastIndexOf(',');
	const lastDot = text.lastIndexOf('.');
	if (lastComma >= 0 && lastDot >= 0) {
		const decimal = lastComma > lastDot ? ',' : '.';
		const grouping = decimal === ',' ? '.' : ',';
		const [whole, fraction, ...rest] = text.split(decimal);
		if (rest.length > 0 || !isGrouped(whole, grouping)) return null;
		text = whole.split(grouping).join('') + '.' + fraction;
	} else if (lastComma >= 0) {
		if (isGrouped(text, ',')) text = text.split(',').join('');
		else if (text.split(',').length === 2) text = text.replace(',', '.');
		else return null;
	} else if (text.split('.').length > 2) {
		if (!isGrouped(text, '.')) return null;
		text = text.split('.').join('');
	}
	const value = Number(text);
	if (!Number.isFinite(value)) return null;
	return negative ? -value : value;
}

function isGrouped(whole: string, separator: string): boolean {
	if (!whole.includes(separator)) return /^\d*$/.test(whole);
	const groups = whole.split(separator);
	return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
}

const MONTHS: Record<string, number> = {
	jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
	jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
	nov: 11, november: 11, dec: 12, december: 12,
};
const WEEKDAY_PREFIX = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+/i;

/**
 * A date in a common form -> `YYYY-MM-DD`, or null. Numeric day/month order: a part above 12
 * decides; otherwise day first, unless the field's format puts the month first (MM/DD/YYYY).
 */
export function parseDate(raw: string, format: string | null = null): string | null {
	const text = raw.trim().replace(WEEKDAY_PREFIX, '');
	let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\S*)?$/.exec(text) ?? /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
	if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));

	match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$/.exec(text);
	if (match) {
		const first = Number(match[1]);
		const second = Number(match[2]);
		const year = fullYear(match[3]);
		const monthFirstFormat = format !== null && /m/i.test(format) && /d/i.test(format) && format.search(/m/i) < format.search(/d/i);
		if (first > 12) return isoDate(year, second, first);
		if (second > 12) return isoDate(year, first, second);
		return monthFirstFormat ? isoDate(year, first, second) : isoDate(year, second, first);
	}

	match = /^(\d{1,2})(?:st|nd|rd|th)?[\s./-]+([a-z]+)\.?,?[\s./-]+(\d{4}|\d{2})$/i.exec(text);
	if (match && MONTHS[match[2].toLowerCase()]) return isoDate(fullYear(match[3]), MONTHS[match[2].toLowerCase()], Number(match[1]));

	match = /^([a-z]+)\.?[\s./-]+(\d{1,2})(?:st|nd|rd|th)?,?[\s./-]+(\d{4}|\d{2})$/i.exec(text);
	if (match && MONTHS[match[1].toLowerCase()]) return isoDate(fullYear(match[3]), MONTHS[match[1].toLowerCase()], Number(match[2]));
	return null;
}

function fullYear(digits: string): number {
	const year = Number(digits);
	if (digits.length === 4) return year;
	return year < 70 ? 2000 + year : 1900 + year;
}

function isoDate(year: number, month: number, day: number): string | null {
	if (month < 1 || month > 12 || day < 1) return null;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day > daysInMonth) return null;
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', 't', '1', 'paid', 'on', 'checked', 'x', '✓', '✔']);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'f', '0', 'unpaid', 'not paid', 'off', 'unchecked']);

export function parseBoolean(raw: string): boolean | null {
	const word = raw.trim().toLowerCase().replace(/[.!]+$/, '');
	if (TRUE_WORDS.has(word)) return true;
	if (FALSE_WORDS.has(word)) return false;
	return null;
}

const LABEL_LINE = /^([^:]{1,200}):(.*)$/;

/**
 * Fills `fields` from `text` (see EXTRACTION.md): `Label: value` lines for scalar fields,
 * CSV-like blocks for tables. Deterministic; fields that nothing fills are null.
 */
export function fillFields(text: string, fields: SchemaFieldDefinition[]): ExtractedField[] {
	const lines = text.replace(/\r\n?/g, '\n').split('\n');
	const byTitle = new Map<string, SchemaFieldDefinition>();
	for (const field of fields) {
		if (!byTitle.has(normaliseTitle(field.title))) byTitle.set(normaliseTitle(field.title), field);
	}
	const values = new Map<SchemaFieldDefinition, unknown>();
	const tables = fields.filter(isTable);

	const labelledField = (line: string): { field: SchemaFieldDefinition; raw: string } | undefined => {
		const match = LABEL_LINE.exec(line);
		const field = match ? byTitle.get(normaliseTitle(match[1])) : undefined;
		return field && match ? { field, raw: match[2].trim() } : undefined;
	};

	/** Reads rows after a header at `headerIndex`; returns the rows and the index after the block. */
	const readRows = (headerIndex: number, header: TableHeader, table: SchemaFieldDefinition) => {
		const rows: Record<string, unknown>[] = [];
		let index = headerIndex + 1;
		for (; index < lines.length; index++) {
			const line = lines[index];
			if (line.trim() === '' || labelledField(line)) break;
			const cells = splitCells(line, header.delimiter);
			const row: Record<string, unknown> = {};
			for (const child of table.items ?? []) row[child.title] = null;
			header.columns.forEach((child, column) => {
				if (child && cells[column] !== undefined) row[child.title] = coerceFieldValue(cells[column], child);
			});
			rows.push(row);
		}
		return { rows, next: index };
	};

	for (let index = 0; index < lines.length; index++) {
		const line = lines[index];
		if (line.trim() === '') continue;
		const labelled = labelledField(line);

		if (labelled && isTable(labelled.field)) {
			if (values.has(labelled.field) || labelled.raw !== '') continue;
			let headerIndex = index + 1;
			while (headerIndex < lines.length && lines[headerIndex].trim() === '') headerIndex++;
			if (headerIndex >= lines.length) continue;
			const header = readTableHeader(lines[headerIndex], labelled.field);
			if (header.matched === 0) continue;
			const { rows, next } = readRows(headerIndex, header, labelled.field);
			values.set(labelled.field, rows);
			index = next - 1;
			continue;
		}

		if (labelled) {
			if (values.has(labelled.field)) continue;
			const value = coerceFieldValue(labelled.raw, labelled.field);
			if (value !== null) values.set(labelled.field, value);
			continue;
		}

		// A header line without a title line (e.g. a CSV file): two or more columns must match.
		for (const table of tables) {
			if (values.has(table)) continue;
			const header = readTableHeader(line, table);
			if (header.matched < 2) continue;
			const { rows, next } = readRows(index, header, table);
			values.set(table, rows);
			index = next - 1;
			break;
		}
	}

	return fields.map((field) => describeField(field, values.has(field) ? values.get(field) : null));
}

/** `{ title: value }` of extracted fields (the first field of a title wins). */
export function valuesByTitle(fields: ExtractedField[]): Record<string, unknown> {
	const result: Record<string, unknown> = {};
	for (const field of fields) if (!(field.title in result)) result[field.title] = field.value;
	return result;
}
