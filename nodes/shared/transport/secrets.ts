import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { formsOfSecrets, redact, redactForms } from '../../../credentials/shown';

/**
 * Secrets and redaction: the API key and presigned URL signatures never appear in an error
 * message, a log line or an output item. Every text that leaves the node passes through here.
 */

/** Replaces every occurrence of every secret (whatever its length) in `text` (credentials/shown.ts). */
export { redact };

/** Arrays and objects are walked; binary data and dates hold no text a person reads as such. */
function isContainer(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object') return false;
	return !(ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date);
}

/** One container on the walk's stack: its own keys, the values found for them so far, its copy. */
interface Frame {
	source: Record<string, unknown>;
	keys: string[];
	next: number;
	/** The key and value being walked below this frame. */
	key: string;
	child: unknown;
	values: unknown[];
	newKeys: string[];
	changed: boolean;
	/** Made when a cycle comes back to this container (the copy must exist before it is filled). */
	copy?: Record<string, unknown>;
}

function emptyLike(source: object): Record<string, unknown> {
	if (Array.isArray(source)) return new Array(source.length) as unknown as Record<string, unknown>;
	return (Object.getPrototypeOf(source) === null ? Object.create(null) : {}) as Record<string, unknown>;
}

/** The frame's copy, with the redacted keys and values. Own data properties only: a key "__proto__" stays a key. */
function filledCopy(frame: Frame): Record<string, unknown> {
	const copy = frame.copy ?? emptyLike(frame.source);
	frame.newKeys.forEach((key, index) => {
		Object.defineProperty(copy, key, { value: frame.values[index], enumerable: true, writable: true, configurable: true });
	});
	return copy;
}

function openFrame(source: Record<string, unknown>): Frame {
	return { source, keys: Object.keys(source), next: 0, key: '', child: undefined, values: [], newKeys: [], changed: false };
}

/**
 * A JSON-like value with every form of every secret removed from its strings and object keys, at
 * any depth: the one walk that both finds and replaces, so they cannot disagree. Iterative (an
 * explicit stack: no depth limit, no RangeError at 20,000 levels), each container visited once
 * (shared references are copied once and stay shared, a cycle stays a cycle in the copy), so the
 * work is linear in the value's size. A container in which nothing changes is returned as it was,
 * not copied; the value as a whole too (a container on a cycle is always copied: whether something
 * below it changes is not known when the cycle closes). Binary data and dates are kept as they are.
 */
export function redactDeep<T>(value: T, secrets: string[]): T {
	const forms = formsOfSecrets(secrets);
	if (forms.length === 0) return value;
	if (typeof value === 'string') return redactForms(value, forms) as T;
	if (!isContainer(value)) return value;
	const finished = new Map<object, unknown>();
	const onStack = new Map<object, Frame>();
	const root = openFrame(value);
	onStack.set(value, root);
	const stack: Frame[] = [root];
	let result: unknown = value;
	const record = (frame: Frame, walked: unknown) => {
		const newKey = redactForms(frame.key, forms);
		frame.newKeys.push(newKey);
		frame.values.push(walked);
		// Object.is: NaN is unchanged too (NaN !== NaN would copy every container above it).
		if (!Object.is(walked, frame.child) || newKey !== frame.key) frame.changed = true;
	};
	while (stack.length > 0) {
		const frame = stack[stack.length - 1];
		if (frame.next < frame.keys.length) {
			frame.key = frame.keys[frame.next++];
			const child = frame.source[frame.key];
			frame.child = child;
			if (typeof child === 'string') record(frame, redactForms(child, forms));
			else if (!isContainer(child)) record(frame, child);
			else if (finished.has(child)) record(frame, finished.get(child));
			else {
				const open = onStack.get(child);
				if (open) {
					// A cycle: point at the copy of the container still being walked, which is then
					// always made (the cycle is kept, and no reference leads back to the original).
					open.copy ??= emptyLike(open.source);
					open.changed = true;
					record(frame, open.copy);
				} else {
					const below = openFrame(child);
					onStack.set(child, below);
					stack.push(below);
				}
			}
			continue;
		}
		stack.pop();
		onStack.delete(frame.source);
		const walked = frame.changed ? filledCopy(frame) : frame.source;
		finished.set(frame.source, walked);
		const parent = stack[stack.length - 1];
		if (parent) record(parent, walked);
		else result = walked;
	}
	return result as T;
}

/** Output items with every secret removed from their JSON (binary data is not looked at). */
export function withoutSecrets(items: INodeExecutionData[], secrets: string[]): INodeExecutionData[] {
	if (secrets.length === 0) return items;
	return items.map((item) => {
		const json = redactDeep(item.json, secrets);
		return json === item.json ? item : { ...item, json };
	});
}

/**
 * Removes the secrets from every part of an error that n8n shows, logs or stores with the
 * execution: message, description, the messages list, context, the error response, the cause
 * and the stack.
 */
export function scrubError<E extends Error>(error: E, secrets: string[]): E {
	if (secrets.length === 0) return error;
	const target = error as E & {
		description?: string | null;
		messages?: string[];
		context?: IDataObject;
		errorResponse?: unknown;
	};
	target.message = redact(target.message ?? '', secrets);
	if (typeof target.description === 'string') target.description = redact(target.description, secrets);
	if (Array.isArray(target.messages)) target.messages = target.messages.map((m) => redact(String(m), secrets));
	if (target.context && typeof target.context === 'object') target.context = redactDeep(target.context, secrets);
	if (target.errorResponse !== undefined) target.errorResponse = redactDeep(target.errorResponse, secrets);
	const cause = (target as { cause?: unknown }).cause;
	if (cause instanceof Error) {
		const text = `${cause.message}\n${cause.stack ?? ''}`;
		if (redact(text, secrets) !== text) {
			Object.defineProperty(target, 'cause', {
				value: redactDeep({ name: cause.name, message: cause.message }, secrets),
				configurable: true,
				writable: true,
			});
		}
	} else if (cause !== undefined) {
		const redacted = redactDeep(cause, secrets);
		if (redacted !== cause) Object.defineProperty(target, 'cause', { value: redacted, configurable: true, writable: true });
	}
	if (typeof target.stack === 'string') target.stack = redact(target.stack, secrets);
	return error;
}

/** The URL without its query string: the signature of a presigned URL is a bearer secret. */
export function redactQuery(url: string): string {
	const queryStart = url.indexOf('?');
	return queryStart === -1 ? url : `${url.slice(0, queryStart)}?…`;
}

