import { isId } from '../ids';
import { CALLBACK_LIMITS } from '../limits';

/**
 * What a callback's body says, read as a hint only: nothing in it is trusted. The service posts
 * JSON `{ status: waiting|completed|failed, step, uploadId, timestamp, fileIds }` (docs/dev/api-contract.md
 * and the service's documentation); both callback paths (Upload's wait, the Callback Trigger) read
 * three fields, each checked, and ask the API about the rest. `fileIds` (a string, an array, or absent) and every other field are never read:
 * the files come from the API's answer for the upload. Nothing here walks the body, so its size
 * (n8n parses at most its payload limit, 16 MB by default) costs nothing more.
 */
export interface CallbackNotice {
	/** The upload the call names, when it is a UUID, as the service's upload ids are; checked before it goes into a path. */
	uploadId?: string;
	/** `step`: an intermediate step (status `waiting`). `outcome`: anything else (completed, failed, or a status not documented). */
	kind: 'step' | 'outcome';
	/** The step's name when it is a short name (letters, digits, _ . -). */
	step?: string;
}

/** A notice that names its upload (the Callback Trigger's URL is not bound to one: it needs the id). */
export interface CallbackHint extends CallbackNotice {
	uploadId: string;
}

export type ReadNotice = { ok: true; notice: CallbackNotice } | { ok: false; reason: string };
export type ReadCallback = { ok: true; hint: CallbackHint } | { ok: false; reason: string };

/** The steps after which processing has ended: a callback naming one is never an intermediate step. */
const FINAL_STEPS = new Set(['processing_finished', 'processing_failed']);

const STEP_NAME = new RegExp(`^[A-Za-z0-9_.-]{1,${CALLBACK_LIMITS.maxStepNameLength}}$`);

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** An own property only: a body's "__proto__" or "constructor" is data, never inherited. */
function field(body: Record<string, unknown>, name: string): unknown {
	return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

/**
 * A body sent with another content type than JSON (n8n then hands it over as text) is read as JSON
 * when it is short: the service's callbacks are small, and a callback refused for its content type
 * would be a document lost after the service's retries.
 */
function asJson(body: unknown): unknown {
	if (typeof body !== 'string' || body.length > CALLBACK_LIMITS.maxTextBodyChars) return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The notice of a callback's body, or why it is not one (answered 400, nothing asked of the API). */
export function readNotice(received: unknown): ReadNotice {
	const body = asJson(received);
	if (!isPlainObject(body)) return { ok: false, reason: 'The body is not a JSON object' };
	const uploadId = field(body, 'uploadId');
	const status = field(body, 'status');
	const step = field(body, 'step');
	const kind = typeof status === 'string' && status.length <= 32 && status.trim().toLowerCase() === 'waiting' ? 'step' : 'outcome';
	return {
		ok: true,
		notice: {
			kind,
			...(isId(uploadId, 'uuid') ? { uploadId: uploadId.toLowerCase() } : {}),
			...(typeof step === 'string' && STEP_NAME.test(step) ? { step } : {}),
		},
	};
}

/** Whether a notice reports an intermediate step only (status `waiting`, not a final step): nothing to check. */
export function isIntermediate(notice: CallbackNotice): boolean {
	return notice.kind === 'step' && !FINAL_STEPS.has(notice.step ?? '');
}

/** The hint of a callback's body that must name its upload, or why it is not one (answered 400, nothing asked of the API). */
export function readCallback(received: unknown): ReadCallback {
	const read = readNotice(received);
	if (!read.ok) return read;
	const { uploadId } = read.notice;
	if (uploadId === undefined) return { ok: false, reason: 'uploadId is not an upload id of the service (a UUID)' };
	return { ok: true, hint: { ...read.notice, uploadId } };
}
