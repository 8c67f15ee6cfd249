/**
 * A small round-robin HTTP proxy on 127.0.0.1: the load balancer in front of n8n's webhook
 * processes in queue mode (docs/queue-mode.md). Each request goes to the next target in turn,
 * whole (method, path, headers, body), and its answer comes back as the target gave it; a target
 * that cannot be reached is answered 502. It counts what each target was sent, so a test can see
 * that the calls were spread.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
	/** http://127.0.0.1:<port> */
	url: string;
	/** The targets' base URLs (http://127.0.0.1:<port>), in turn order. */
	targets: string[];
	/** Requests sent to each target, by index. */
	sent: number[];
	close(): Promise<void>;
}

export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
	if (targets.length === 0) throw new Error('a round-robin proxy needs at least one target');
	const sent = targets.map(() => 0);
	let next = 0;
	const forward = (req: IncomingMessage, res: ServerResponse) => {
		const index = next;
		next = (next + 1) % targets.length;
		sent[index] += 1;
		const target = new URL(targets[index]);
		const upstream = httpRequest(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end('bad gateway');
		});
		req.pipe(upstream);
	};
	const server = createServer(forward);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		targets,
		sent,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
