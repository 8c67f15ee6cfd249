/**
 * Deterministic document extraction for the emulator, second step: schema fields out of a
 * document's text (fillFields): `Label: value` lines and CSV-like tables, values typed by
 * parse-values.ts. The forms it understands and the output shape are in EXTRACTION.md.
 */
import { parseBoolean, parseDate, parseNumber } from './parse-values';

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
	/** Not in the specification: a field the service fills and a client may not write (README: Choices). */
	readOnly?: boolean;
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
	/** Present (true) only on a read-only field. */
	readOnly?: boolean;
}

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
		...(field.readOnly === true ? { readOnly: true } : {}),
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
