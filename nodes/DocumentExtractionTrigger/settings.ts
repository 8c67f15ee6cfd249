import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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
}

const ZONE_SUFFIX = /(Z|[+-]\d{2}:?\d{2})$/i;
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** Offset (ms) of `timeZone` from UTC at the instant `utcMs`. */
function zoneOffsetMs(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
	const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant a Start Date names. A value with a zone (`Z`, `+02:00`) is taken as is; a wall time
 * without one (what n8n's date picker gives) is read in the workflow's time zone.
 */
export function parseStartDate(value: unknown, timeZone: string): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const text = value.trim();
	if (ZONE_SUFFIX.test(text)) {
		const ms = Date.parse(text);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const match = WALL_TIME.exec(text);
	if (!match) return undefined;
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0'] = match;
	const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, +fraction.padEnd(3, '0'));
	if (Number.isNaN(wall)) return undefined;
	let zone = 'UTC';
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		zone = timeZone;
	} catch {
		zone = 'UTC';
	}
	const guess = wall - zoneOffsetMs(wall, zone);
	return wall - zoneOffsetMs(guess, zone);
}

function splitList(value: unknown): string[] {
	const entries = Array.isArray(value) ? value : String(value ?? '').split(',');
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

const SCHEMA_ID = /^[0-9a-f]{24}$/i;

export function readSettings(context: IPollFunctions): TriggerSettings {
	const node = context.getNode();
	const event = context.getNodeParameter('event', 'fileProcessed') as TriggerEvent;
	const startFrom = context.getNodeParameter('startFrom', 'now') as 'now' | 'date';
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	const options = context.getNodeParameter('options', {}) as IDataObject;

	let startDate: string | undefined;
	if (startFrom === 'date') {
		const raw = context.getNodeParameter('startDate', '');
		const ms = parseStartDate(raw, context.getTimezone());
		if (ms === undefined) {
			throw new NodeOperationError(node, `Start Date "${String(raw)}" is not a date`, {
				description: 'Pick a date and time, or give an ISO 8601 value such as 2026-01-31T00:00:00Z.',
			});
		}
		startDate = new Date(ms).toISOString();
	}

	const schemaIds = splitList(filters.schemaIds);
	const invalid = schemaIds.find((id) => !SCHEMA_ID.test(id));
	if (invalid !== undefined) {
		throw new NodeOperationError(node, `Schema ID "${invalid}" is not a schema ID`, {
			description:
				'A schema ID is 24 hexadecimal characters, e.g. 6650a00000000000000c0002 (the schemaId field of a file). Separate several with commas.',
		});
	}

	return {
		event: event === 'fileUpdated' ? 'fileUpdated' : 'fileProcessed',
		startFrom: startFrom === 'date' ? 'date' : 'now',
		startDate,
		fileClasses: splitList(filters.fileClasses).map((name) => name.toLowerCase()),
		schemaIds: schemaIds.map((id) => id.toLowerCase()),
		includeValues: options.includeValues === true,
	};
}

/** Whether a file passes the file type filters (any of them; all files when none is set). */
export function matchesFilters(file: IDataObject, settings: TriggerSettings): boolean {
	if (settings.fileClasses.length === 0 && settings.schemaIds.length === 0) return true;
	const fileClass = String(file.fileClass ?? '').trim().toLowerCase();
	const schemaId = String(file.schemaId ?? '').trim().toLowerCase();
	return (
		(fileClass !== '' && settings.fileClasses.includes(fileClass)) ||
		(schemaId !== '' && settings.schemaIds.includes(schemaId))
	);
}
