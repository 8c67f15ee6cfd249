/** The request log's entries, their fault labels and the events the emulator emits for them. */
import type { HostName, TakenFaults } from './faults';

export interface RequestLogEntry {
	/** Order of arrival, starting at 1. */
	sequence: number;
	host: HostName;
	method: string;
	/** The path as received (not percent-decoded). */
	path: string;
	/** The query parameters, decoded. */
	query: Record<string, string | string[]>;
	/** The query string as received, without '?' ('' when none). */
	rawQuery: string;
	/** Request headers, names in lower case. */
	headers: Record<string, string | string[] | undefined>;
	/** Header names and values exactly as received, alternating (keeps repeated headers that `headers` drops). */
	rawHeaders: string[];
	/** Body bytes received (counted as they stream in). */
	bodyBytes: number;
	/** Response status; 0 while running or when the connection closed without an answer (reset, hang, client gone). */
	status: number;
	requestId?: string;
	/** Clock time of arrival (ISO 8601). */
	time: string;
	/** The client's TCP port (which process sent it can be read from /proc: bench/queue-rate-limit.bench.ts). */
	remotePort?: number;
	/** Which injected fault hit this request, if any. */
	fault?: FaultLabel;
	/** The pause a 429 answer announced (retryAfter, seconds). */
	retryAfter?: number;
	durationMs?: number;
}

export type FaultLabel = 'fail' | 'delay' | 'reset' | 'redirect' | 'hang' | 'rewrite' | 'trickle' | 'huge' | 'ignore-page' | 'edit' | 'repeat-id';

export type EmulatorEvents = {
	/** A request arrived (any host), its fault already taken. */
	request: [RequestLogEntry];
	/** A request's status is settled (0 when the connection closed without an answer). */
	response: [RequestLogEntry];
};

/** The label the request log shows: the fault that decides the answer, else a rewrite or an edit, else a delay. */
export function faultLabel(taken: TakenFaults): FaultLabel | undefined {
	if (taken.reset) return 'reset';
	if (taken.fail) return 'fail';
	if (taken.redirect) return 'redirect';
	if (taken.hang) return 'hang';
	if (taken.huge) return 'huge';
	if (taken.rewrite) return 'rewrite';
	if (taken.trickle) return 'trickle';
	if (taken.partPlan) return 'rewrite';
	if (taken.ignorePage) return 'ignore-page';
	if (taken.edit) return 'edit';
	if (taken.repeatId) return 'repeat-id';
	return taken.delay ? 'delay' : undefined;
}
