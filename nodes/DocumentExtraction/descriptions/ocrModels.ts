import type { INodeProperties } from 'n8n-workflow';

/**
 * The OCR/extraction models the node offers in its list: the one table of them.
 * Spelled as the service's documentation spells them (the specification writes `Engine` for the
 * leading product word: docs/dev/api-contract.md#ocr-model-ids). The list changes over time and by plan, so the parameter also takes any
 * model ID ("By ID"). The Aegis model's full identifier is not published, so it is not listed.
 */
export const OCR_MODELS: ReadonlyArray<{ value: string; name: string; language: string }> = [
	{ value: 'Beethoven_ENG_O5.6', name: 'OpenAI V6', language: 'English' },
	{ value: 'Beethoven_ENG_G5.5', name: 'Gemini V5', language: 'English' },
	{ value: 'Beethoven_ENG_GP25', name: 'Gemini Pro 2.5', language: 'English' },
	{ value: 'Beethoven_ENG_GP25.1', name: 'Gemini Pro 2.5 (v25.1)', language: 'English' },
	{ value: 'Beethoven_ENG_GP25.2', name: 'Gemini Pro 2.5 PDF', language: 'English' },
	{ value: 'Beethoven_CUS_O5.1', name: 'Custom OpenAI v5.1', language: 'Custom' },
	{ value: 'Beethoven_CUS_O5.2', name: 'Custom OpenAI v5.2', language: 'Custom' },
	{ value: 'Beethoven_CUS_GP25.1', name: 'Custom Gemini Pro 2.5', language: 'Custom' },
	{
		value: 'Beethoven_Direct_Form_Filling (GP2.5)',
		name: 'Direct Form Filling (Gemini Pro 2.5)',
		language: 'Custom',
	},
	{
		value: 'Unified (google-document-ai-ocr-gemini-v10)',
		name: 'Unified: Document AI OCR + Gemini v10',
		language: 'English',
	},
	{ value: 'Beethoven_ZH_O5.9', name: 'OpenAI v5.9', language: 'Chinese' },
	{ value: 'Beethoven_JP_O5.3', name: 'OpenAI v5.3', language: 'Japanese' },
	{ value: 'Beethoven_JP_G5.4', name: 'Gemini v5.4', language: 'Japanese' },
	{ value: 'Beethoven_TH_O5.1', name: 'OpenAI v5.1', language: 'Thai' },
	{ value: 'Beethoven_TH_G5.1', name: 'Gemini v5.1', language: 'Thai' },
];

export function ocrModelLabel(model: (typeof OCR_MODELS)[number]): string {
	return `${model.language}: ${model.name}`;
}

/** The OCR model as a resource locator: From List (the table above) or By ID (any model). */
export const ocrModelParameter: INodeProperties = {
	displayName: 'OCR Model',
	name: 'ocrModel',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'The model that reads the document. Availability depends on your plan; choose By ID for a model the list does not have.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a model...',
			typeOptions: { searchListMethod: 'searchOcrModels', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. Beethoven_ENG_GP25',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\S.{0,254}$',
						errorMessage: 'Enter a model ID of 1 to 255 characters',
					},
				},
			],
		},
	],
};
