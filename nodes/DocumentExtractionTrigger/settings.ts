import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isId } from '../shared/api';
import { COMMA_OR_NEW_LINE, parseDateTime, splitList } from '../shared/parameters';

export type TriggerEvent = 'fileProcessed' | 'fileUpdated';

export interface TriggerSettings {
	event: TriggerEvent;
	startFrom: 'now' | 'date';
	/** Start From "Specific Date": the instant as an ISO 8601 string in UTC. */
	startDate?: string;
	/** Lower-cased file classes to keep (empty: all). */
	fileClasses: string[];
	/** Schema ids to keep (empty: all). */
	schemaIds: string[];
	includeValues: boolean;
	/** Max Documents per Poll. */
	maxItems: number;
}

/** Max Documents per Poll by default. */
const DEFAULT_MAX_ITEMS = 1000;

export function readSettings(context: IPollFunctions): TriggerSettings {
	const node = context.getNode();
	const event = context.getNodeParameter('event', 'fileProcessed') as TriggerEvent;
	const startFrom = context.getNodeParameter('startFrom', 'now') as 'now' | 'date';
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;

	let startDate: string | undefined;
	if (startFrom === 'date') {
		const raw = context.getNodeParameter('startDate', '');
		const ms = parseDateTime(raw, context.getTimezone());
		if (ms === undefined) {
			throw new NodeOperationError(node, `Start Date "${String(raw)}" is not a date`, {
				description: 'Pick a date and time, or give an ISO 8601 value such as 2026-01-31T00:00:00Z.',
			});
		}
		startDate = new Date(ms).toISOString();
	}

	const schemaIds = splitList(filters.schemaIds, COMMA_OR_NEW_LINE);
	const invalid = schemaIds.find((id) => !isId(id, 'objectId'));
	if (invalid !== undefined) {
		throw new NodeOperationError(node, `Schema ID "${invalid}" is not a schema ID`, {
			description:
				'A schema ID is 24 hexadecimal characters, e.g. 6650a00000000000000c0002 (the schemaId field of a file). Separate several with commas.',
		});
	}

	const maxItems = options.maxDocumentsPerPoll ?? DEFAULT_MAX_ITEMS;
	if (typeof maxItems !== 'number' || !Number.isSafeInteger(maxItems) || maxItems < 1) {
		throw new NodeOperationError(node, `Max Documents per Poll "${String(maxItems)}" is not a whole number of at least 1`, {
			description: `Set Options → Max Documents per Poll to a whole number such as ${DEFAULT_MAX_ITEMS}, or remove the option.`,
		});
	}

	return {
		event: event === 'fileUpdated' ? 'fileUpdated' : 'fileProcessed',
		startFrom: startFrom === 'date' ? 'date' : 'now',
		startDate,
		fileClasses: splitList(filters.fileClasses, COMMA_OR_NEW_LINE).map((name) => name.toLowerCase()),
		schemaIds: schemaIds.map((id) => id.toLowerCase()),
		includeValues: options.includeValues === true,
		maxItems,
	};
}

/** Whether a file passes the file type filters (any of them; all files when none is set). */
export function fileFilter(settings: TriggerSettings): (file: IDataObject) => boolean {
	if (settings.fileClasses.length === 0 && settings.schemaIds.length === 0) return () => true;
	const fileClasses = new Set(settings.fileClasses);
	const schemaIds = new Set(settings.schemaIds);
	return (file) => {
		const fileClass = String(file.fileClass ?? '').trim().toLowerCase();
		const schemaId = String(file.schemaId ?? '').trim().toLowerCase();
		return (fileClass !== '' && fileClasses.has(fileClass)) || (schemaId !== '' && schemaIds.has(schemaId));
	};
}
