import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { CALLBACK_LIMITS } from '../shared/limits';
import { invalidParameter, readParameter, requireNumber } from '../shared/parameters';
import type { CallbackEvent } from './description';
import { CALLBACK_EVENTS } from './description';

export interface CallbackSettings {
	events: ReadonlySet<CallbackEvent>;
	includeValues: boolean;
	/** History Size: uploads (and steps) remembered to recognise a repeated callback. */
	historySize: number;
	/** Claim Across Processes: each callback claimed at the API before it fires (nodes/shared/callbacks/claim.ts). */
	claimAcrossProcesses: boolean;
}

function isEvent(value: unknown): value is CallbackEvent {
	return typeof value === 'string' && (CALLBACK_EVENTS as readonly string[]).includes(value);
}

/** The trigger's parameters, read and checked before a call is looked at (a call has no item). */
export function readCallbackSettings(context: IWebhookFunctions): CallbackSettings {
	const events: unknown = readParameter(context, 'events', undefined, ['fileProcessed']);
	if (!Array.isArray(events) || events.length === 0 || !events.every(isEvent)) {
		throw invalidParameter(context, undefined, 'Events', events, 'one or more of File Processed, Processing Failed, Processing Step');
	}
	const options = readParameter<IDataObject>(context, 'options', undefined, {});
	const historySize = requireNumber(
		context,
		undefined,
		'History Size',
		options.historySize ?? CALLBACK_LIMITS.defaultHistorySize,
		{ min: 1, max: CALLBACK_LIMITS.maxHistorySize, integer: true },
	);
	return { events: new Set(events), includeValues: options.includeValues === true, historySize, claimAcrossProcesses: options.claimAcrossProcesses === true };
}
