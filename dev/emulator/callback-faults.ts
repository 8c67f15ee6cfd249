/** Faults of the service's callbacks (notifications to an upload's callbackURL): delayed,
 * duplicated, out of order, forged, replayed, never sent, and before the receiver is ready
 * (processed at once, with no retries). A fault is bound to uploads when their processing starts
 * (the next `count` uploads, one upload by id, or all until cleared) and then shapes every
 * notification of those uploads. CallbackSender (callbacks.ts) and Processor (processing.ts) ask
 * it what to do. */
import { newUuid } from './ids';

export const CALLBACK_FAULT_KINDS = ['delay', 'duplicate', 'reorder', 'forge', 'replay', 'drop', 'before-parked'] as const;
export type CallbackFaultKind = (typeof CALLBACK_FAULT_KINDS)[number];

/** Which notifications of a bound upload a fault touches: `final` is processing_finished / processing_failed. */
export type CallbackStepFilter = 'all' | 'final' | 'intermediate';

export interface CallbackFaultSpec {
	kind: CallbackFaultKind;
	/** Uploads it is bound to: the next `count` uploads whose processing starts after it is set (default 1), or 'all' until cleared. */
	count?: number | 'all';
	/** Only this upload (then `count` is ignored). */
	uploadId?: string;
	/** Which notifications (default: 'all'; 'final' for replay). */
	steps?: CallbackStepFilter;
	/** delay: each notification waits this long before its first attempt (default 2000 ms). */
	delayMs?: number;
	/** duplicate: extra copies of each notification (default 1) … */
	copies?: number;
	/** … sent at the same moment as the original instead of after it. */
	concurrent?: boolean;
	/** reorder: notifications are held this long from the first one held (default 1000 ms), then sent newest first. */
	windowMs?: number;
	/** replay: each notification is sent again this long after its first delivery ended (default 2000 ms) … */
	afterMs?: number;
	/** … this many times (default 1). */
	times?: number;
	/** forge: the body sent (merged over `{ status: 'completed', step: 'processing_finished', fileIds: <a random id> }`) when processing starts. */
	body?: Record<string, unknown>;
}

export interface CallbackFault extends CallbackFaultSpec {
	id: string;
	/** Uploads still to bind (Infinity for 'all'). */
	remaining: number;
	/** Uploads bound so far. */
	uploadIds: string[];
}

const FINAL_STEPS = new Set(['processing_finished', 'processing_failed']);

export function isFinalNotification(payload: Record<string, unknown>): boolean {
	return FINAL_STEPS.has(String(payload.step));
}

function touches(fault: CallbackFault, payload: Record<string, unknown>): boolean {
	const steps = fault.steps ?? (fault.kind === 'replay' ? 'final' : 'all');
	if (steps === 'all') return true;
	return steps === 'final' ? isFinalNotification(payload) : !isFinalNotification(payload);
}

/** Checks a spec from outside (the control API): a sentence saying what is wrong, or undefined. */
export function callbackFaultProblem(spec: Record<string, unknown>): string | undefined {
	if (!CALLBACK_FAULT_KINDS.includes(spec.kind as CallbackFaultKind)) return `kind must be one of ${CALLBACK_FAULT_KINDS.join(', ')}`;
	if (spec.count !== undefined && spec.count !== 'all' && !(typeof spec.count === 'number' && Number.isInteger(spec.count) && spec.count > 0)) return "count must be a whole number of 1 or more, or 'all'";
	if (spec.uploadId !== undefined && typeof spec.uploadId !== 'string') return 'uploadId must be a string';
	if (spec.steps !== undefined && !['all', 'final', 'intermediate'].includes(spec.steps as string)) return 'steps must be all, final or intermediate';
	for (const field of ['delayMs', 'copies', 'windowMs', 'afterMs', 'times']) {
		const value = spec[field];
		if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) return `${field} must be a number, 0 or more`;
	}
	if (spec.concurrent !== undefined && typeof spec.concurrent !== 'boolean') return 'concurrent must be true or false';
	if (spec.body !== undefined && (spec.body === null || typeof spec.body !== 'object' || Array.isArray(spec.body))) return 'body must be an object';
	return undefined;
}

export class CallbackFaults {
	private faults: CallbackFault[] = [];
	/** Faults bound to each upload, by upload id. */
	private readonly bound = new Map<string, CallbackFault[]>();

	add(spec: CallbackFaultSpec): CallbackFault {
		const fault: CallbackFault = {
			...spec,
			id: newUuid(),
			remaining: spec.uploadId !== undefined || spec.count === 'all' ? Infinity : (spec.count ?? 1),
			uploadIds: [],
		};
		this.faults.push(fault);
		return fault;
	}

	clear(): void {
		this.faults = [];
		this.bound.clear();
	}

	/** The faults set, with the uploads each was bound to (JSON: 'all' for an unbounded count). */
	pending(): Array<Omit<CallbackFault, 'remaining'> & { remaining: number | 'all' }> {
		return this.faults.map((fault) => ({ ...fault, remaining: Number.isFinite(fault.remaining) ? fault.remaining : 'all' }));
	}

	/** Binds the faults that take this upload; called when its processing starts. Returns the faults bound. */
	bind(uploadId: string): CallbackFault[] {
		const taken: CallbackFault[] = [];
		for (const fault of this.faults) {
			const matches = fault.uploadId !== undefined ? fault.uploadId === uploadId : fault.remaining > 0;
			if (!matches) continue;
			if (fault.uploadId === undefined) fault.remaining -= 1;
			fault.uploadIds.push(uploadId);
			taken.push(fault);
		}
		if (taken.length > 0) this.bound.set(uploadId, taken);
		return taken;
	}

	/** The bound fault of a kind that touches this notification of the upload, if any. */
	find(kind: CallbackFaultKind, uploadId: string, payload: Record<string, unknown>): CallbackFault | undefined {
		return this.bound.get(uploadId)?.find((fault) => fault.kind === kind && touches(fault, payload));
	}

	/** Whether the upload is bound to a fault of this kind (whatever the notification). */
	has(kind: CallbackFaultKind, uploadId: string): boolean {
		return this.bound.get(uploadId)?.some((fault) => fault.kind === kind) ?? false;
	}

	/** The forged notification to send when the upload's processing starts, if it is bound to a forge fault. */
	forgedBody(uploadId: string): Record<string, unknown> | undefined {
		const fault = this.bound.get(uploadId)?.find((candidate) => candidate.kind === 'forge');
		if (!fault) return undefined;
		return { status: 'completed', step: 'processing_finished', fileIds: newUuid(), ...fault.body };
	}
}
