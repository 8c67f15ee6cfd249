/**
 * A network whose DNS answers nothing, as behind a firewall that blocks it: every name lookup but
 * localhost fails with ENOTFOUND ("getaddrinfo ENOTFOUND <host>"), the error a user on such a
 * network sees. Preloaded (NODE_OPTIONS=--require, with DNS_BLOCK=1) into an n8n that runs without the loopback guard
 * (whose refusal comes before any lookup), it shows what the credential test and the node say there
 * with the Default instance, whose host nobody typed; `block()` and `unblock()` do the same inside a
 * test process. Nothing leaves the machine by name; the caller keeps connections by address to
 * 127.0.0.1.
 */
'use strict';

const dns = require('node:dns');

const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };

function isLocal(hostname) {
	return hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '::1';
}

function notFound(hostname) {
	const error = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
	error.code = 'ENOTFOUND';
	error.errno = -3008;
	error.syscall = 'getaddrinfo';
	error.hostname = hostname;
	return error;
}

function blockedLookup(hostname, options, callback) {
	const done = typeof options === 'function' ? options : callback;
	if (isLocal(hostname)) return original.lookup.call(dns, hostname, options, callback);
	process.nextTick(() => done(notFound(hostname)));
	return {};
}

async function blockedPromisesLookup(hostname, options) {
	if (isLocal(hostname)) return original.promisesLookup.call(dns.promises, hostname, options);
	throw notFound(hostname);
}

function block() {
	dns.lookup = blockedLookup;
	dns.promises.lookup = blockedPromisesLookup;
}

function unblock() {
	dns.lookup = original.lookup;
	dns.promises.lookup = original.promisesLookup;
}

// Preloaded with DNS_BLOCK=1: blocked from the start.
if (process.env.DNS_BLOCK === '1') block();

module.exports = { block, unblock };
