import { isId } from '../shared/api';
import { CALLBACK_LIMITS } from '../shared/limits';

/**
 * What a callback's body says, read as a hint only: nothing in it is trusted. The service posts
 * JSON `{ status: waiting|completed|failed, step, uploadId, timestamp, fileIds }` (docs/dev/api-contract.md
 * and the service's documentation); the trigger reads three fields, each checked, and asks the API
 * about the rest. `fileIds` (a string, an array, or absent) and every other field are never read:
 * the files come from the API's answer for the upload. Nothing here walks the body, so its size
 * (n8n parses at most its payload limit, 16 MB by default) costs nothing more.
 */
export interface CallbackHint {
	/** The upload the call is about: a UUID, as the service's upload ids are; checked before it goes into a path. */
	uploadId: string;
	/** `step`: an intermediate step (status `waiting`). `outcome`: anything else (completed, failed, or a status not documented). */
	kind: 'step' | 'outcome';
	/** The step's name when it is a short name (letters, digits, _ . -). */
	step?: string;
}

export type ReadCallback = { ok: true; hint: CallbackHint } | { ok: false; reason: string };

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

/** The hint of a callback's body, or why it is not one (answered 400, nothing asked of the API). */
export function readCallback(received: unknown): ReadCallback {
	const body = asJson(received);
	if (!isPlainObject(body)) return { ok: false, reason: 'The body is not a JSON object' };
	const uploadId = field(body, 'uploadId');
	if (!isId(uploadId, 'uuid')) return { ok: false, reason: 'uploadId is not an upload id of the service (a UUID)' };
	const status = field(body, 'status');
	const step = field(body, 'step');
	const kind = typeof status === 'string' && status.length <= 32 && status.trim().toLowerCase() === 'waiting' ? 'step' : 'outcome';
	return {
		ok: true,
		hint: { uploadId: uploadId.toLowerCase(), kind, ...(typeof step === 'string' && STEP_NAME.test(step) ? { step } : {}) },
	};
}
