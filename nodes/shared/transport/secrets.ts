import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TEXT_LIMITS } from '../limits';

/**
 * Secrets and redaction: the API key and presigned URL signatures never appear in an error
 * message, a log line or an output item. Every text that leaves the node passes through here.
 */

const REDACTED = '[redacted]';

/** The forms in which a secret can appear in a text: as is, URL-encoded, JSON-escaped. */
function secretForms(secret: string): string[] {
	const forms = new Set([secret]);
	try {
		forms.add(encodeURIComponent(secret));
	} catch {
		// a lone surrogate cannot be URL-encoded, so it cannot appear encoded either
	}
	forms.add(JSON.stringify(secret).slice(1, -1));
	return [...forms].filter((form) => form !== '').sort((left, right) => right.length - left.length);
}

/** Replaces every occurrence of every secret (whatever its length) in `text`. */
export function redact(text: string, secrets: Iterable<string> = []): string {
	let result = text;
	for (const secret of secrets) {
		if (!secret) continue;
		for (const form of secretForms(secret)) {
			if (result.includes(form)) result = result.split(form).join(REDACTED);
		}
	}
	return result;
}

/** redact() through every string (and object key) of a JSON-like value. */
function redactDeep<T>(value: T, secrets: string[], depth = 0): T {
	if (secrets.length === 0 || depth > TEXT_LIMITS.redactionDepth) return value;
	if (typeof value === 'string') return redact(value, secrets) as T;
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secrets, depth + 1)) as T;
	if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
		// Built with Object.fromEntries: a key such as "__proto__" from the service stays a plain
		// key and never replaces the prototype of the copy.
		return Object.fromEntries(
			Object.entries(value as Record<string, unknown>).map(([key, entry]) => [redact(key, secrets), redactDeep(entry, secrets, depth + 1)]),
		) as T;
	}
	return value;
}

/** Whether any string in a JSON-like value holds any of the secrets (a cheap check first). */
function containsSecret(value: unknown, secrets: string[]): boolean {
	if (secrets.length === 0) return false;
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
	return secrets.some((secret) => secretForms(secret).some((form) => text.includes(form)));
}

/** Output items with every secret removed from their JSON (binary data is not looked at). */
export function withoutSecrets(items: INodeExecutionData[], secrets: string[]): INodeExecutionData[] {
	if (secrets.length === 0) return items;
	return items.map((item) => (containsSecret(item.json, secrets) ? { ...item, json: redactDeep(item.json, secrets) } : item));
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
	if (target.context && typeof target.context === 'object') {
		for (const [key, value] of Object.entries(target.context)) {
			target.context[key] = redactDeep(value, secrets) as IDataObject[string];
		}
	}
	if (target.errorResponse !== undefined) {
		target.errorResponse = containsSecret(target.errorResponse, secrets)
			? redactDeep(target.errorResponse, secrets)
			: target.errorResponse;
	}
	const cause = (target as { cause?: unknown }).cause;
	if (cause instanceof Error) {
		if (containsSecret(`${cause.message}\n${cause.stack ?? ''}`, secrets)) {
			Object.defineProperty(target, 'cause', {
				value: { name: cause.name, message: redact(cause.message, secrets) },
				configurable: true,
				writable: true,
			});
		}
	} else if (cause !== undefined && containsSecret(cause, secrets)) {
		Object.defineProperty(target, 'cause', { value: redactDeep(cause, secrets), configurable: true, writable: true });
	}
	if (typeof target.stack === 'string') target.stack = redact(target.stack, secrets);
	return error;
}

/** The URL without its query string: the signature of a presigned URL is a bearer secret. */
export function redactQuery(url: string): string {
	const queryStart = url.indexOf('?');
	return queryStart === -1 ? url : `${url.slice(0, queryStart)}?…`;
}

