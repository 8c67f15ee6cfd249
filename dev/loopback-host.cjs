/**
 * The Host header rule of every local server here: n8n's (through the preload
 * dev/n8n/host-guard.cjs), the emulator's and the scripted chat model's (dev/host-check.ts):
 * `localhost`, `127.x.x.x` or `[::1]`, any port, or one of `extra`; a missing Host passes (HTTP/1.0;
 * a browser always sends one). Plain CommonJS without side effects, so that the preload can run it
 * in n8n's own Node; TypeScript imports it with the types of loopback-host.d.cts.
 */
'use strict';

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The host part of a Host header (no port, no brackets, lower case, no trailing dot); undefined when malformed. */
function hostName(header) {
	const value = header.trim().toLowerCase();
	if (value.startsWith('[')) {
		const end = value.indexOf(']');
		if (end < 0) return undefined;
		const rest = value.slice(end + 1);
		if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
		return value.slice(1, end);
	}
	const colon = value.indexOf(':');
	const name = colon < 0 ? value : value.slice(0, colon);
	if (colon >= 0 && !/^\d{1,5}$/.test(value.slice(colon + 1))) return undefined;
	return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * True when a request's Host header names this machine: `localhost`, `127.x.x.x` or `[::1]`, with
 * or without a port. A missing Host header passes. `extra` are further names or addresses to
 * accept (e.g. the address a server was bound to).
 */
function isLoopbackHostHeader(header, extra = []) {
	if (header === undefined) return true;
	const name = hostName(header);
	if (name === undefined) return false;
	if (name === 'localhost' || name === '::1') return true;
	const ipv4 = IPV4_LOOPBACK.exec(name);
	if (ipv4) return ipv4.slice(1).every((octet) => Number(octet) <= 255);
	return extra.some((allowed) => allowed.toLowerCase() === name);
}

module.exports = { isLoopbackHostHeader };
