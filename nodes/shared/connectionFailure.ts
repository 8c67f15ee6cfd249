/**
 * A request that got no HTTP answer, in words: what happened (as the end of "Could not reach
 * <origin>: ...", so the host is not named again) and what to do about it. The one table
 * of network error codes, for the node's errors (transport/errors.ts) and the credential test
 * (credentialTest.ts).
 *
 * What to do depends on where the host came from. A host the user typed (Instance Host, Base URL
 * Override) may be misspelt or point at the wrong port; the host of a fixed Instance (Default) was
 * typed by nobody, so only the network between n8n and the service can be at fault there, and
 * asking to check its spelling would send the user looking for a mistake they did not make. An
 * error that explains itself (a code this table does not know, such as the `npm start` sandbox's
 * ESANDBOXOFFLINE, whose message says it is offline and how to go online) is shown in its own words,
 * without advice of ours after it.
 */

import { TEXT_LIMITS } from './limits';
import { trimTrailingStops } from './text';

export interface ConnectionFailureInput {
	/** The error's code (ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED, ...), if any. */
	code?: string;
	/** The error's own message. */
	cause?: string;
	/**
	 * Where the user typed this host, e.g. "the Base URL Override"; undefined when nobody typed it
	 * (the fixed host of an Instance).
	 */
	typedIn?: string;
	/** The timeout the failed attempt had, when it timed out. */
	timeoutMs?: number;
	/** How that timeout is named (default: the Request Timeout option). */
	timeoutName?: string;
}

export interface ConnectionFailure {
	/** What happened, as the end of "Could not reach <host>: ...". */
	what: string;
	/** What to do, as a sentence; empty when `what` says it already. */
	todo: string;
	/** `what` is the error's own message (it says what to do itself). */
	ownWords: boolean;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_BAD_RESPONSE']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'TIMEOUT']);
const UNREACHABLE_CODES = new Set(['ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN']);

function isTlsCode(code: string): boolean {
	return /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code) || code === 'EPROTO';
}

/** The first line of a text, at most TEXT_LIMITS.networkCauseChars characters, without its closing stops; undefined when empty. */
function firstLine(text: string | undefined): string | undefined {
	const line = trimTrailingStops((text ?? '').split('\n', 1)[0].trim());
	if (line === '' || line === 'unknown error') return undefined;
	const max = TEXT_LIMITS.networkCauseChars;
	return line.length > max ? `${line.slice(0, max)}…` : line;
}

function seconds(ms: number): number {
	return Math.round(ms / 1000);
}

/** The network between n8n and the service, as the thing to check when no typed host can be wrong. */
const NETWORK_TODO = "Check that n8n can reach the internet from where it runs: its DNS server, firewall or HTTP proxy.";

export function explainConnectionFailure(input: ConnectionFailureInput): ConnectionFailure {
	const { code, typedIn, timeoutMs } = input;
	const timeoutName = input.timeoutName ?? 'the Request Timeout option';
	const typed = typedIn !== undefined;
	const plain = (what: string, todo: string): ConnectionFailure => ({ what, todo, ownWords: false });

	if (code && DNS_CODES.has(code)) {
		return typed
			? plain(
					`its host name was not found (DNS, ${code})`,
					`Check the spelling of ${typedIn} in the credential, and that n8n can look up host names where it runs.`,
				)
			: plain(
					`its host name could not be looked up (DNS, ${code}). It is the fixed host of the chosen Instance, so nothing typed in the credential is wrong: the network between n8n and the internet is`,
					NETWORK_TODO,
				);
	}
	if (code === 'ECONNREFUSED') {
		return plain(
			'the connection was refused: nothing accepts connections on that host and port (ECONNREFUSED)',
			typed
				? `Check the host and port of ${typedIn} in the credential; for a local emulator or proxy, that it is running on that port.`
				: 'A firewall or proxy between n8n and the service may refuse it: check n8n\'s network access.',
		);
	}
	if (code && isTlsCode(code)) {
		return plain(
			code === 'EPROTO' || /WRONG_VERSION/.test(code)
				? `the TLS handshake failed (${code}): it does not speak https on that port`
				: `its TLS certificate is not trusted, or is not made out to its name (${code})`,
			typed
				? `The host must present a valid certificate for its name. For a proxy with its own certificate authority, start n8n with NODE_EXTRA_CA_CERTS naming that authority. The key is never sent over a connection whose certificate was not verified.`
				: 'Something between n8n and the service presents its own certificate (a proxy that inspects TLS?): make n8n trust that authority (NODE_EXTRA_CA_CERTS) or ask your network administrator.',
		);
	}
	if (code === 'IDLE' && timeoutMs) {
		return plain(`no answer and no byte moved for ${seconds(timeoutMs)} s (${timeoutName})`, defaultTodo(typedIn));
	}
	if (code && TIMEOUT_CODES.has(code)) {
		return plain(
			timeoutMs ? `no answer within ${seconds(timeoutMs)} s (${timeoutName})` : `the connection timed out (${code})`,
			defaultTodo(typedIn),
		);
	}
	if (code && CLOSED_CODES.has(code)) {
		return plain(`the connection was closed before the answer was complete (${code})`, defaultTodo(typedIn));
	}
	if (code && UNREACHABLE_CODES.has(code)) {
		return plain(`the network has no route to it (${code})`, typed ? defaultTodo(typedIn) : NETWORK_TODO);
	}
	// A code this table does not know: the error's own words, which say what to do (ESANDBOXOFFLINE).
	const own = code ? firstLine(input.cause) : undefined;
	if (code && own) return { what: `${own} (${code})`, todo: '', ownWords: true };
	return plain(code ? `network error ${code}` : 'network error', defaultTodo(typedIn));
}

function defaultTodo(typedIn: string | undefined): string {
	return typedIn
		? `Check ${typedIn} in the credential and the network between n8n and the API.`
		: 'Check the network between n8n and the service.';
}
