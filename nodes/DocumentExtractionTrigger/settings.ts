import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	COMMA_OR_NEW_LINE,
	readParameter,
	requireIdList,
	requireNumber,
	requireTimestamp,
	splitList,
} from '../shared/parameters';

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

/** The trigger's parameters, read and checked before the poll sends anything (a poll has no item). */
export function readSettings(context: IPollFunctions): TriggerSettings {
	const event = readParameter<string>(context, 'event', undefined, 'fileProcessed');
	const startFrom = readParameter<string>(context, 'startFrom', undefined, 'now');
	const filters = readParameter<IDataObject>(context, 'filters', undefined, {});
	const options = readParameter<IDataObject>(context, 'options', undefined, {});

	const startDate =
		startFrom === 'date' ? requireTimestamp(context, undefined, 'Start Date', readParameter(context, 'startDate', undefined, '')) : undefined;
	const schemaIds = requireIdList(context, undefined, 'Schema IDs', filters.schemaIds, 'objectId');
	const maxItems = requireNumber(
		context,
		undefined,
		'Max Documents per Poll',
		options.maxDocumentsPerPoll ?? DEFAULT_MAX_ITEMS,
		{ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true },
		'a whole number of 1 or more',
	);

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
