/**
 * Preloaded into n8n (NODE_OPTIONS=--require) by dev/n8n/n8n-launcher.ts unless the sandbox runs
 * online (`npm start -- --online`): every TCP connection to a host other than the loopback
 * interface is refused before any DNS lookup and recorded, one line per attempt, in the file
 * named by $LOOPBACK_GUARD_LOG. Our machines may talk to 127.0.0.1 only; this proves that n8n,
 * its task runner and our nodes do.
 *
 * A refused connection fails with the code ESANDBOXOFFLINE and a message that says the sandbox is
 * offline and, when $LOOPBACK_GUARD_ONLINE_HINT names the command, how to start it online: the
 * node's error and the credential test show that message in full, as the cause and its fix.
 */
'use strict';

const fs = require('node:fs');
const net = require('node:net');

const logFile = process.env.LOOPBACK_GUARD_LOG;
/** How to start this n8n online, e.g. `npm start -- --online`; absent for test instances. */
const onlineHint = process.env.LOOPBACK_GUARD_ONLINE_HINT;

/** The error a refused connection fails with. */
function offlineError(host, port) {
	const target = `${host}:${port}`;
	const message = onlineHint
		? `The sandbox is offline: start it with ${onlineHint} to reach ${host}. It may connect only to this machine (127.0.0.1), so the connection to ${target} was refused.`
		: `This n8n runs offline (a test instance): it may connect only to this machine (127.0.0.1), so the connection to ${target} was refused.`;
	const error = new Error(message);
	error.code = 'ESANDBOXOFFLINE';
	return error;
}

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
		const error = offlineError(target.host, target.port);
		process.nextTick(() => this.destroy(error));
		return this;
	}
	return originalConnect.apply(this, args);
};
