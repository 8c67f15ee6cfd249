/** What the text of a document makes of its file: the file type it is read as, the schema fields as definitions to fill, and the summary fields derived from the filled values. */
import { createHash } from 'node:crypto';
import type { SchemaFieldDefinition } from './fill-fields';
import type { EmulatorState } from './state';
import type { FileRecord, FileTypeRecord, SchemaField } from './types';

export function toDefinition(field: SchemaField): SchemaFieldDefinition {
	return {
		id: field.id,
		title: field.title,
		description: field.description,
		type: field.type,
		format: field.format,
		hidden: field.hidden,
		internet_context: field.internet_context,
		items: field.items ? field.items.map(toDefinition) : null,
		enumValues: field.enumValues,
		...(field.fieldSuggestion ? { fieldSuggestion: field.fieldSuggestion } : {}),
		...(field.inlineListType ? { inlineListType: field.inlineListType } : {}),
		...(field.readOnly === true ? { readOnly: true } : {}),
	};
}

/** The label of a `Label: value` line (1 to 100 characters before the first colon), in linear time. */
function labelOf(line: string): string | undefined {
	const colon = line.indexOf(':');
	if (colon < 0) return undefined;
	const label = line.slice(0, colon).trim();
	return label.length >= 1 && label.length <= 100 ? label : undefined;
}

function normaliseTitle(title: string): string {
	return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Picks the file type: a `Document Type: <name>` line wins; otherwise the type whose
 * field titles appear most often as `Label:` lines; ties and no match give the default. */
export function pickFileType(state: EmulatorState, workspaceId: string, text: string): FileTypeRecord | undefined {
	const types = state.fileTypesOf(workspaceId);
	if (types.length === 0) return undefined;
	const labels = new Set<string>();
	for (const line of text.split(/\r?\n/)) {
		const raw = labelOf(line);
		if (raw === undefined) continue;
		const label = normaliseTitle(raw);
		if (label === 'document type') {
			const wanted = normaliseTitle(line.slice(line.indexOf(':') + 1));
			const named = types.find((type) => normaliseTitle(type.name) === wanted);
			if (named) return named;
		}
		labels.add(label);
	}
	const workspace = state.workspace(workspaceId);
	const fallback = types.find((type) => type.id === workspace.defaultFileTypeId) ?? types[0];
	let best = fallback;
	let bestScore = labelsMatched(state, fallback, labels);
	for (const type of types) {
		const score = labelsMatched(state, type, labels);
		if (score > bestScore) {
			best = type;
			bestScore = score;
		}
	}
	return best;
}

/** How many of the type's field titles stand as labels in the text. */
function labelsMatched(state: EmulatorState, type: FileTypeRecord, labels: Set<string>): number {
	return state.currentVersion(type).fields.filter((field) => labels.has(normaliseTitle(field.title))).length;
}

/** currency, referenceId, fileContactName/Id and summary from the filled values. */
export function deriveSummary(file: FileRecord): void {
	const fields = file.formValues?.fields ?? [];
	const valueOf = (predicate: (title: string) => boolean): unknown => fields.find((field) => predicate(field.title.toLowerCase()) && field.value !== null)?.value;
	const currency = valueOf((title) => title === 'currency');
	const reference = valueOf((title) => title.endsWith('number'));
	const contact = valueOf((title) => title === 'vendor name' || title === 'merchant name' || title.endsWith(' name'));
	const total = valueOf((title) => title === 'total amount' || title === 'total');
	file.currency = typeof currency === 'string' ? currency : '';
	file.referenceId = typeof reference === 'string' ? reference : '';
	file.fileContactName = typeof contact === 'string' ? contact : '';
	file.fileContactId = file.fileContactName ? createHash('sha1').update(`${file.workspaceId}:${file.fileContactName}`).digest('hex').slice(0, 24) : '';
	const parts = [file.fileClass];
	if (file.referenceId) parts.push(file.referenceId);
	if (file.fileContactName) parts.push(`from ${file.fileContactName}`);
	if (typeof total === 'number') parts.push(`total ${total}${file.currency ? ` ${file.currency}` : ''}`);
	file.summary = parts.join(' ');
}
