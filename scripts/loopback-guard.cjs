/**
 * Preloaded into n8n (NODE_OPTIONS=--require) by scripts/n8n-launcher.ts: every TCP connection
 * to a host other than the loopback interface is refused before any DNS lookup and recorded, one
 * line per attempt, in the file named by $LOOPBACK_GUARD_LOG. Our machines may talk to 127.0.0.1
 * only; this proves that n8n, its task runner and our nodes do.
 */
'use strict';

const fs = require('node:fs');
const net = require('node:net');

const logFile = process.env.LOOPBACK_GUARD_LOG;

function isLoopback(host) {
	return (
		host === undefined ||
		host === null ||
		host === '' ||
		host === 'localhost' ||
		host === '::1' ||
		/^127\.\d+\.\d+\.\d+$/.test(host) ||
		/^::ffff:127\./.test(host)
	);
}

function destination(args) {
	const first = Array.isArray(args[0]) ? args[0][0] : args[0];
	if (first && typeof first === 'object') {
		if (first.path) return undefined; // a Unix socket
		return { host: first.host, port: first.port };
	}
	if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a Unix socket path
	return { host: typeof args[1] === 'string' ? args[1] : undefined, port: first };
}

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
	const target = destination(args);
	if (target && !isLoopback(target.host)) {
		const line = `${new Date().toISOString()} pid ${process.pid} refused ${target.host}:${target.port}\n`;
		if (logFile) fs.appendFileSync(logFile, line);
		const error = new Error(`loopback guard: connection to ${target.host}:${target.port} refused`);
		error.code = 'ECONNREFUSED';
		process.nextTick(() => this.destroy(error));
		return this;
	}
	return originalConnect.apply(this, args);
};
