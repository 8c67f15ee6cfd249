import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import type { FieldKind } from '../../shared/schema';
import { readFields } from '../../shared/schema';

/**
 * The fields Query > Execute's pickers offer (Selected Fields, Filters, Order By): the file
 * attributes a query may name, then the titles of the fields of the chosen file types (of every
 * file type when none is chosen), each once however many types have it (titles match
 * case-insensitively, spaces collapsed), labelled with its type and file types. Tables' columns
 * are left out: a query cannot name them (docs/operations-other.md#query-configuration).
 */

/** File attributes a query may name besides extracted fields. */
export const QUERY_FILE_ATTRIBUTES = ['fileName', 'fileId', 'fileTypeId', 'schemaId', 'directoryId', 'createdAt', 'updatedAt'] as const;

const KIND_WORDS: Record<FieldKind, string> = {
	string: 'text',
	number: 'number',
	boolean: 'boolean',
	date: 'date',
	object: 'object',
	table: 'table',
	other: 'other',
};

/** The file types named in a label, before "…". */
const TYPES_NAMED = 3;

interface Offered {
	title: string;
	kinds: Set<string>;
	types: string[];
}

function matchKey(title: string): string {
	return title.trim().split(/\s+/).join(' ').toLowerCase();
}

export function queryFieldOptions(fileTypes: IDataObject[], chosen: ReadonlySet<string>): INodePropertyOptions[] {
	const offered = new Map<string, Offered>();
	for (const fileType of fileTypes) {
		if (chosen.size > 0 && !chosen.has(String(fileType.id))) continue;
		const version = fileType.currentSchemaVersion as IDataObject | undefined;
		const typeName = String(fileType.name ?? fileType.id);
		for (const field of readFields(version?.fields)) {
			const key = matchKey(field.title);
			if (key === '' || field.title === 'untitled') continue;
			const known = offered.get(key) ?? { title: field.title, kinds: new Set<string>(), types: [] };
			known.kinds.add(field.enumValues.length ? 'choice' : KIND_WORDS[field.kind]);
			if (known.types[known.types.length - 1] !== typeName) known.types.push(typeName);
			offered.set(key, known);
		}
	}
	const attributes = QUERY_FILE_ATTRIBUTES.map((name) => ({ name: `${name} (file attribute)`, value: name }));
	const fields = [...offered.values()]
		.sort((left, right) => left.title.localeCompare(right.title))
		.map(({ title, kinds, types }) => {
			const typesNamed = types.slice(0, TYPES_NAMED).join(', ') + (types.length > TYPES_NAMED ? ', …' : '');
			return { name: `${title} (${[...kinds].join('/')} · ${typesNamed})`, value: title };
		});
	return [...attributes, ...fields];
}
