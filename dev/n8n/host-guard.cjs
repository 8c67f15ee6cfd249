/**
 * Preloaded into n8n (NODE_OPTIONS=--require) by dev/n8n/n8n-launcher.ts: every HTTP server of the
 * process (n8n's editor, REST API, webhooks, push, the task broker) answers only requests whose
 * Host header names this machine, `localhost`, `127.x.x.x` or `[::1]` with any port. Any other
 * Host gets 421 and a sentence saying why (an upgrade request, the same on its socket).
 *
 * Why: a web page on another site can point its own name at 127.0.0.1 (DNS rebinding) and then
 * talk to the sandbox's n8n from the user's browser as a same-origin page. Its requests carry its
 * own name in Host, and n8n 2.41 does not check Host itself (its push endpoint only checks that
 * Origin matches Host, which such a page satisfies). The same rule guards the emulator and the
 * scripted chat model (dev/host-check.ts); the rule itself is dev/loopback-host.cjs, one copy
 * for all three.
 *
 * N8N_HOST_GUARD_EXTRA_HOSTS: further names to accept, comma-separated (none by default).
 */
'use strict';

const http = require('node:http');

const { isLoopbackHostHeader: isLoopbackHost } = require('../loopback-host.cjs');

const EXTRA = (process.env.N8N_HOST_GUARD_EXTRA_HOSTS || '')
	.split(',')
	.map((name) => name.trim().toLowerCase())
	.filter(Boolean);

const isLoopbackHostHeader = (header) => isLoopbackHost(header, EXTRA);

function message(header) {
	const shown = JSON.stringify(String(header ?? '').slice(0, 200));
	return (
		`This n8n (the local sandbox) answers only requests addressed to localhost, 127.0.0.1 or [::1]; this one was addressed to ${shown} (its Host header). ` +
		'A page on another site can reach this port by pointing its own name at 127.0.0.1 (DNS rebinding), so such requests are refused. ' +
		'Open n8n as http://127.0.0.1:<port> or http://localhost:<port>.\n'
	);
}

const originalEmit = http.Server.prototype.emit;
http.Server.prototype.emit = function guardedEmit(event, req, second) {
	if ((event === 'request' || event === 'checkContinue' || event === 'checkExpectation') && req && !isLoopbackHostHeader(req.headers.host)) {
		const res = second;
		req.resume();
		res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', connection: 'close' });
		res.end(message(req.headers.host));
		return true;
	}
	if (event === 'upgrade' && req && !isLoopbackHostHeader(req.headers.host)) {
		const body = message(req.headers.host);
		second.end(
			`HTTP/1.1 421 Misdirected Request\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
		);
		return true;
	}
	return originalEmit.apply(this, arguments);
};
