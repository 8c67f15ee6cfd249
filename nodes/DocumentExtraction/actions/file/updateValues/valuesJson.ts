import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { FieldValue } from '../../../../shared/api';
import { invalidParameter, requireJson } from '../../../../shared/parameters';

/** Update Values' "Using JSON" (both typeVersions): the fields and their new values as JSON. */

export const VALUES_JSON_PARAMETER = 'Values (JSON)';

export const valuesJsonParameter: INodeProperties = {
	displayName: 'Values (JSON)',
	name: 'valuesJson',
	type: 'json',
	default: '[\n  { "title": "Total Amount", "value": 123.45 }\n]',
	required: true,
	displayOptions: { show: { inputMode: ['json'] } },
	description:
		'An array of { "title": …, "value": … }, an object { "fields": [ … ] } in that form, or an object { "Field Title": value, … }',
};

/** A JSON parameter (text, or a value from an expression) holding an object or an array. */
export function jsonObjectOrArray(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	raw: unknown,
): IDataObject | unknown[] {
	const isArray = Array.isArray(raw) || (typeof raw === 'string' && raw.trim().startsWith('['));
	return isArray
		? requireJson(context, itemIndex, parameter, raw, 'array')
		: requireJson(context, itemIndex, parameter, raw, 'object');
}

/** The fields of Values (JSON), in any of its three forms, as { title, value } (null clears a field). */
export function fieldsFromJson(context: IExecuteFunctions, itemIndex: number): FieldValue[] {
	const parameter = VALUES_JSON_PARAMETER;
	const parsed = jsonObjectOrArray(context, itemIndex, parameter, context.getNodeParameter('valuesJson', itemIndex));
	const entries = Array.isArray(parsed) ? parsed : Array.isArray(parsed.fields) ? (parsed.fields as unknown[]) : undefined;
	if (!entries) return Object.entries(parsed).map(([title, value]) => ({ title, value }));
	return entries.map((entry, position) => {
		const record = entry as IDataObject;
		if (!record || typeof record !== 'object' || typeof record.title !== 'string' || record.title.trim() === '' || !('value' in record)) {
			throw invalidParameter(context, itemIndex, `${parameter} entry ${position + 1}`, entry, '{ "title": "Field Title", "value": … }');
		}
		return { title: record.title.trim(), value: record.value };
	});
}
