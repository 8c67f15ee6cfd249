/** The fields a query may name: file attributes and extracted value titles (matched without case), with their types. */
import { FILE_ATTRIBUTES, type FieldRef, type FieldType, type FileAttribute, type QueryableDocument, type QueryCatalog } from './types';

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function normaliseTitle(title: string): string {
	return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

function schemaTypeToFieldType(type: string, items: unknown[] | null | undefined): FieldType {
	switch (type.toUpperCase()) {
		case 'STRING':
			return 'string';
		case 'NUMBER':
			return 'number';
		case 'BOOLEAN':
			return 'boolean';
		case 'DATE':
			return 'date';
		case 'OBJECT':
			return Array.isArray(items) && items.length > 0 ? 'table' : 'object';
		default:
			return 'unknown';
	}
}

function valueType(value: unknown): FieldType | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (typeof value === 'string') return ISO_DATE.test(value) ? 'date' : 'string';
	if (Array.isArray(value)) return 'table';
	return 'object';
}

function mergeTypes(known: FieldType | undefined, next: FieldType): FieldType {
	if (known === undefined || known === next) return next;
	if ((known === 'date' && next === 'string') || (known === 'string' && next === 'date')) return 'string';
	return 'unknown';
}

/** Field titles and types known to the query: the catalog's schema fields, then the documents' values. */
export class FieldDirectory {
	private readonly titles = new Map<string, string>();
	private readonly types = new Map<string, FieldType>();
	private readonly lowerCaseValues = new WeakMap<QueryableDocument, Map<string, unknown>>();

	constructor(documents: QueryableDocument[], catalog: QueryCatalog) {
		const catalogTypes = new Map<string, FieldType>();
		for (const field of catalog.fields ?? []) {
			if (typeof field?.title !== 'string' || typeof field.type !== 'string') continue;
			const key = normaliseTitle(field.title);
			if (!this.titles.has(key)) this.titles.set(key, field.title.trim());
			catalogTypes.set(key, mergeTypes(catalogTypes.get(key), schemaTypeToFieldType(field.type, field.items)));
		}
		const inferredTypes = new Map<string, FieldType>();
		for (const document of documents) {
			for (const [title, value] of Object.entries(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!this.titles.has(key)) this.titles.set(key, title.trim());
				const type = valueType(value);
				if (type) inferredTypes.set(key, mergeTypes(inferredTypes.get(key), type));
			}
		}
		for (const key of this.titles.keys()) this.types.set(key, catalogTypes.get(key) ?? inferredTypes.get(key) ?? 'unknown');
	}

	resolve(name: string): FieldRef | undefined {
		if ((FILE_ATTRIBUTES as readonly string[]).includes(name)) {
			const attribute = name as FileAttribute;
			const type: FieldType = attribute === 'createdAt' || attribute === 'updatedAt' ? 'datetime' : 'string';
			return { kind: 'attribute', name: attribute, title: attribute, type };
		}
		const key = normaliseTitle(name);
		const title = this.titles.get(key);
		if (title === undefined) return undefined;
		return { kind: 'value', key, title, type: this.types.get(key) ?? 'unknown' };
	}

	read(document: QueryableDocument, field: FieldRef): unknown {
		if (field.kind === 'attribute') return document[field.name] ?? null;
		let values = this.lowerCaseValues.get(document);
		if (!values) {
			values = new Map();
			for (const [title, value] of Object.entries(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!values.has(key)) values.set(key, value);
			}
			this.lowerCaseValues.set(document, values);
		}
		const value = values.get(field.key);
		return value === undefined ? null : value;
	}

	/** Value titles in order of first appearance among `documents`. */
	titlesOf(documents: QueryableDocument[]): string[] {
		const seen = new Map<string, string>();
		for (const document of documents) {
			for (const title of Object.keys(document.values ?? {})) {
				const key = normaliseTitle(title);
				if (!seen.has(key)) seen.set(key, this.titles.get(key) ?? title);
			}
		}
		return [...seen.values()];
	}
}

export function headerType(type: FieldType): string {
	return type === 'unknown' ? 'string' : type;
}

export function sameField(left: FieldRef, right: FieldRef): boolean {
	if (left.kind === 'attribute' && right.kind === 'attribute') return left.name === right.name;
	if (left.kind === 'value' && right.kind === 'value') return left.key === right.key;
	return false;
}

/**
 * Documents and catalog with their field directory built once, so that many queries over the
 * same unchanged data (the emulator caches one per workspace and data version) skip that work.
 * The documents must not change while the dataset is in use.
 */
export interface QueryDataset {
	readonly documents: QueryableDocument[];
	readonly catalog: QueryCatalog;
	readonly fields: FieldDirectory;
}

export function prepareQueryDataset(documents: QueryableDocument[], catalog: QueryCatalog = {}): QueryDataset {
	return { documents, catalog, fields: new FieldDirectory(documents, catalog) };
}
