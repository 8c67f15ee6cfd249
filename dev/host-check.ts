/**
 * DNS-rebinding defence of the local servers (the emulator and the scripted chat model): they
 * answer only requests addressed to this machine by name or address, i.e. whose Host header is
 * `localhost`, `127.x.x.x` or `[::1]` (any port). A web page on another site that rebinds its own
 * name to 127.0.0.1 reaches the port, but its requests carry its own name in Host: they get 421
 * and a sentence saying why, and never reach the emulator's API or its /__emulator/ control.
 *
 * The rule is loopback-host.cjs's, which n8n's own servers apply too (the preload
 * dev/n8n/host-guard.cjs); test/sandbox/host-check.test.ts holds it to one table of Host headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isLoopbackHostHeader } from './loopback-host.cjs';

/** The sentence a refused request gets. */
export function foreignHostMessage(server: string, header: string | undefined): string {
	const shown = JSON.stringify((header ?? '').slice(0, 200));
	return (
		`${server} answers only requests addressed to localhost, 127.0.0.1 or [::1]; this one was addressed to ${shown} (its Host header). ` +
		'A page on another site can reach this port by pointing its own name at 127.0.0.1 (DNS rebinding), so such requests are refused. ' +
		'Open it as http://127.0.0.1:<port> or http://localhost:<port>.\n'
	);
}

export const FOREIGN_HOST_STATUS = 421;

/**
 * Answers 421 with the sentence when the request's Host is not loopback, and returns true (the
 * caller then stops); returns false and does nothing for a loopback Host.
 */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse, server: string, extra: readonly string[] = []): boolean {
	if (isLoopbackHostHeader(req.headers.host, extra)) return false;
	req.resume();
	res.writeHead(FOREIGN_HOST_STATUS, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', connection: 'close' });
	res.end(foreignHostMessage(server, req.headers.host));
	return true;
}

/** The same for an HTTP upgrade (WebSocket) request: the socket gets a 421 and is closed. */
export function refuseForeignUpgrade(req: IncomingMessage, socket: Duplex, server: string, extra: readonly string[] = []): boolean {
	if (isLoopbackHostHeader(req.headers.host, extra)) return false;
	const body = foreignHostMessage(server, req.headers.host);
	socket.end(
		`HTTP/1.1 ${FOREIGN_HOST_STATUS} Misdirected Request\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
	);
	return true;
}
