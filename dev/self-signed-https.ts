/**
 * An https server on 127.0.0.1 whose certificate nobody trusts (self-signed, made by openssl at
 * start): what n8n meets behind a proxy that presents its own certificate. It answers every
 * request 200 with `{}`, but a client that checks certificates never gets that far. Used by the
 * credential tests and the screenshot script to show what the credential test says about it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SelfSignedServer {
	/** `https://127.0.0.1:<port>` */
	url: string;
	/** Requests that got through the TLS handshake (none, for a client that checks certificates). */
	requests: number;
	close(): Promise<void>;
}

export async function startSelfSignedHttps(): Promise<SelfSignedServer> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-self-signed-'));
	try {
		const made = spawnSync(
			'openssl',
			['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', 'key.pem', '-out', 'cert.pem'],
			{ cwd: dir, encoding: 'utf8' },
		);
		if (made.status !== 0) throw new Error(`openssl could not make a self-signed certificate: ${made.stderr}`);
		const key = fs.readFileSync(path.join(dir, 'key.pem'));
		const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
		const server: SelfSignedServer = { url: '', requests: 0, close: async () => undefined };
		const listener = https.createServer({ key, cert }, (request, response) => {
			server.requests++;
			request.resume();
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
		await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
		server.url = `https://127.0.0.1:${(listener.address() as AddressInfo).port}`;
		server.close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
		return server;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
