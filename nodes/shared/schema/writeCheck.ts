import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FieldValue } from '../api';
import { invalidParameter, shown } from '../parameters';
import { convertValue, isEmptyValue } from './convert';
import type { SchemaField } from './fields';
import { mapperType, sameValueType } from './mapperFields';

/**
 * Update Values' check of what it is about to write against the file's fields as they are now
 * (the item's own file is the truth), before anything is written: a field renamed or removed, or
 * whose type changed since the node's field list was loaded, a read-only, hidden or ambiguous
 * field, and a value that does not fit, each fail the item naming the field. Never a silent
 * wrong write (docs/operations-file.md#update-values-with-the-files-fields).
 */

export type WriteMode = 'defineBelow' | 'autoMapInputData' | 'json';

export interface WriteRequest {
	mode: WriteMode;
	/** Field name (the mapper's id; in JSON, the title) → value, in the order given. */
	given: Array<[string, unknown]>;
	/** The node's saved field list by id (columns.schema), for Define Below. */
	saved: Map<string, IDataObject>;
	/** Attempt to Convert Types. */
	convert: boolean;
	includeHidden: boolean;
	/** Map Automatically: leave out (and list) input fields that cannot be written, instead of failing. */
	ignoreUnwritable: boolean;
	/** How the values' parameter is named in a message: "Values to Update", "Values (JSON)". */
	parameter: string;
}

export interface WritePlan {
	fields: FieldValue[];
	/** Given without a value ('' or null in the mapper or input): left as they are. */
	unchanged: string[];
	/** Map Automatically with "Ignore Input Fields It Cannot Write": input fields left out. */
	ignored: string[];
}

const REFRESH = 'Open the node and refresh the field list of Values to Update (its ⋮ menu), then map the field again or remove it.';
const IGNORE_OPTION = 'or turn on the option "Ignore Input Fields It Cannot Write"';

function refusal(node: INode, itemIndex: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(node, `${message} Nothing was written for item ${itemIndex}.`, { itemIndex, description });
}

/** Why `field` cannot be written in this request, as [message, what to do]; undefined when it can. */
function unwritable(field: SchemaField, request: WriteRequest): [string, string] | undefined {
	const what = request.mode === 'autoMapInputData' ? `Remove it from the input items, ${IGNORE_OPTION}.` : `Remove it from ${request.parameter}.`;
	if (field.repeated) return [`The file has more than one field titled ${shown(field.title)}: a write names a field by its title, so it cannot say which.`, what];
	if (field.readOnly) return [`${shown(field.name)} is a read-only field: the service fills it.`, what];
	if (field.hidden && !request.includeHidden && request.mode !== 'json') {
		return [`${shown(field.name)} is a hidden field.`, `Turn on Include Hidden Fields to write it${request.mode === 'autoMapInputData' ? `, ${IGNORE_OPTION}` : ''}.`];
	}
	return undefined;
}

function unknownField(node: INode, itemIndex: number, name: string, request: WriteRequest): NodeOperationError {
	if (request.mode === 'defineBelow') {
		return refusal(node, itemIndex, `${shown(name)} is no longer a field of this file: it was renamed or removed since the node's field list was loaded.`, REFRESH);
	}
	if (request.mode === 'autoMapInputData') {
		return refusal(node, itemIndex, `The input field ${shown(name)} is not a field of this file.`, `Rename it to a field of the file, remove it from the input items, ${IGNORE_OPTION}.`);
	}
	return refusal(node, itemIndex, `${shown(name)} is not a field of this file.`, 'Give the title of a field as Get Values shows it.');
}

/** What to write for the item, checked and converted; throws (naming the field) before anything is written. */
export function planWrite(node: INode, itemIndex: number, live: SchemaField[], request: WriteRequest): WritePlan {
	const byName = new Map(live.map((field) => [field.name, field]));
	const plan: WritePlan = { fields: [], unchanged: [], ignored: [] };
	for (const [name, value] of request.given) {
		if (request.mode !== 'json' && isEmptyValue(value)) {
			plan.unchanged.push(name);
			continue;
		}
		const field = byName.get(name);
		const problem = field ? unwritable(field, request) : undefined;
		if ((!field || problem) && request.mode === 'autoMapInputData' && request.ignoreUnwritable) {
			plan.ignored.push(name);
			continue;
		}
		if (!field) throw unknownField(node, itemIndex, name, request);
		if (problem) throw refusal(node, itemIndex, problem[0], problem[1]);
		const saved = request.mode === 'defineBelow' ? request.saved.get(name) : undefined;
		if (saved && typeof saved.type === 'string' && !sameValueType(saved.type, mapperType(field))) {
			throw refusal(
				node,
				itemIndex,
				`${shown(name)} changed type since the node's field list was loaded: it was ${saved.type}, the file's field is now ${mapperType(field)}.`,
				REFRESH,
			);
		}
		if (value === null && request.mode === 'json') {
			plan.fields.push({ title: field.title, value: null });
			continue;
		}
		const converted = convertValue(value, field, request.convert);
		if (!converted.ok) {
			const at = converted.at ? `, ${converted.at}` : '';
			throw invalidParameter({ getNode: () => node }, itemIndex, `${request.parameter} (${name}${at})`, converted.got, converted.expected);
		}
		plan.fields.push({ title: field.title, value: converted.value });
	}
	return plan;
}
