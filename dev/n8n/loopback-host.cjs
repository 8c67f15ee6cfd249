/**
 * The Host header rule of dev/n8n/host-guard.cjs (no side effects, so tests can require it):
 * `localhost`, `127.x.x.x` or `[::1]`, any port, or one of `extra`; a missing Host passes (HTTP/1.0;
 * a browser always sends one). The emulator and the scripted model have the same rule in
 * TypeScript (dev/emulator/host-check.ts); test/sandbox/host-check.test.ts holds both to one table.
 */
'use strict';

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
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

/** The rule of dev/emulator/host-check.ts isLoopbackHostHeader. */
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
