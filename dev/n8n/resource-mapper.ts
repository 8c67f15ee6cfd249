/**
 * Update Values' field mapper as the n8n editor loads it: POST /rest/dynamic-node-parameters/resource-mapper-fields
 * with the node's current parameters and a saved credential (the same body on n8n 1.123.81 and
 * 2.41.1), and the Values to Update parameter a workflow saves with the fields it answered. Used
 * by the end-to-end cases (test/e2e/resource-mapper-cases.ts) and `npm run screenshots`.
 */
import type { N8nInstance } from './n8n-launcher';
import { NODE_TYPE } from './n8n-stack';

export interface MapperField {
	id: string;
	displayName: string;
	type: string;
	readOnly?: boolean;
	removed?: boolean;
	options?: Array<{ name: string; value: string }>;
}

/** The fields the editor gets for a typeVersion 2 Update Values node with `parameters`, and how long and large the answer was. */
export async function resourceMapperFields(
	n8n: N8nInstance,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
): Promise<{ fields: MapperField[]; ms: number; bytes: number }> {
	const started = Date.now();
	const answer = await n8n.rest<{ fields: MapperField[] }>('/dynamic-node-parameters/resource-mapper-fields', {
		body: {
			nodeTypeAndVersion: { name: NODE_TYPE, version: 2 },
			path: 'parameters.columns',
			methodName: 'getMappingFields',
			currentNodeParameters: { resource: 'file', operation: 'updateValues', inputMode: 'mapper', includeHidden: false, columns: { mappingMode: 'defineBelow', value: null }, ...parameters },
			credentials: { documentExtractionApi: credential },
		},
	});
	return { fields: answer.fields, ms: Date.now() - started, bytes: JSON.stringify(answer).length };
}

/**
 * Values to Update as the editor saves it: the values given, the field list it showed (a field
 * with a value, or in `shown`, is shown; the others wait under "Add field"), conversion off.
 */
export function valuesToUpdate(value: Record<string, unknown>, fields: MapperField[], shown: string[] = []): Record<string, unknown> {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: fields.map((field) => ({
			...field,
			required: false,
			defaultMatch: false,
			display: true,
			canBeUsedToMatch: false,
			removed: !(field.id in value) && !shown.includes(field.id),
		})),
		attemptToConvertTypes: false,
		convertFieldsToString: true,
	};
}
