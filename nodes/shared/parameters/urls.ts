import { NodeOperationError } from 'n8n-workflow';

import { isLoopbackHostname } from '../../../credentials/hostKinds';
import { hasInvisibleOrControl, parseUrl } from '../../../credentials/urlPolicy';
import { shown } from '../../../credentials/shown';
import type { ApiContext } from '../run/context';
import { textOf } from './text';
import { invalidParameter } from './message';

/** Longest Callback URL accepted: what servers and proxies commonly accept in a request line. */
const MAX_URL_LENGTH = 2048;

/**
 * A URL the service will call (Callback URL): https with a host, no user name or password, no
 * spaces, control or invisible characters or backslashes (which the URL parser would silently
 * drop or turn into "/"), at most 2,048 characters. Judged on the parsed URL, with the same
 * character rule as the credential's Base URL (credentials/urlPolicy.ts).
 */
export function requireHttpsUrl(
	context: ApiContext,
	itemIndex: number | undefined,
	parameter: string,
	value: unknown,
): string {
	const text = textOf(context, itemIndex, parameter, value, 'an https:// URL');
	const refuse = (expected: string) => invalidParameter(context, itemIndex, parameter, value, expected);
	if (text.length > MAX_URL_LENGTH) throw refuse(`an https:// URL of at most ${MAX_URL_LENGTH} characters`);
	if (hasInvisibleOrControl(text)) {
		throw refuse('an https:// URL without spaces, control or invisible characters or backslashes');
	}
	const url = parseUrl(text);
	if (!url || url.protocol !== 'https:' || !url.hostname) throw refuse('an https:// URL');
	if (url.username !== '' || url.password !== '') {
		throw refuse('an https:// URL without a user name or password (user:password@)');
	}
	return text;
}

/**
 * How the service could reach a URL it is to call back (the Callback Trigger's Production URL,
 * Upload's resume URL): 'https' with a host, from anywhere; 'loopbackHttp', plain http to this
 * machine, which the service can reach only when the credential's Base URL is on this machine
 * too (the emulator, a local test): each caller asks that last, and only for this answer;
 * 'unreachable' otherwise (another scheme, plain http to another host, no host, or text that is
 * not a URL or carries invisible or control characters).
 */
export function callbackReach(text: string): 'https' | 'loopbackHttp' | 'unreachable' {
	const url = hasInvisibleOrControl(text) ? undefined : parseUrl(text);
	if (!url?.hostname) return 'unreachable';
	if (url.protocol === 'https:') return 'https';
	return url.protocol === 'http:' && isLoopbackHostname(url.hostname) ? 'loopbackHttp' : 'unreachable';
}

/**
 * n8n's resume URL of the execution (`$execution.resumeUrl`), judged before it is handed to the
 * service as the callback URL: https for any host; plain http only when both it and the
 * credential's Base URL are on this machine (the emulator, a local test). n8n builds it from its
 * public webhook URL (WEBHOOK_URL; N8N_WEBHOOK_URL on n8n 2), on the process that runs the node:
 * in queue mode a worker, so every process needs the variable. Throws, before anything is
 * uploaded, saying what to set.
 */
export function requireResumeUrl(
	context: ApiContext,
	resumeUrl: unknown,
	apiBase: { isLoopback: boolean },
): URL {
	const text = typeof resumeUrl === 'string' ? resumeUrl : '';
	const url = hasInvisibleOrControl(text) ? undefined : parseUrl(text);
	const fix =
		"Set WEBHOOK_URL (N8N_WEBHOOK_URL on n8n 2) to n8n's public https:// address on every n8n process, queue-mode workers included, then run again; or choose \"Poll the Service\" as the Wait Mode, which needs no public URL.";
	const refuse = (why: string) =>
		new NodeOperationError(context.getNode(), `The service cannot call this n8n back: ${why}. Nothing was uploaded.`, {
			description: fix,
		});
	if (!url || !url.hostname) throw refuse(`n8n gives no usable resume URL (got ${shown(text)})`);
	if (text.length > MAX_URL_LENGTH) throw refuse(`n8n's resume URL is longer than ${MAX_URL_LENGTH} characters`);
	if (url.username !== '' || url.password !== '') throw refuse("n8n's resume URL carries a user name or password");
	const reach = callbackReach(text);
	if (reach === 'https' || (reach === 'loopbackHttp' && apiBase.isLoopback)) return url;
	if (reach === 'loopbackHttp') {
		throw refuse(`n8n's public webhook URL is ${shown(url.origin)}, an address on this machine that the service cannot reach (plain http is accepted only when the credential's Base URL is on this machine too)`);
	}
	throw refuse(`n8n's public webhook URL is ${shown(url.origin)}, and the service calls back https:// URLs only`);
}
