/** A server started as a child process, stopped politely first: shared by postgres.ts and redis.ts. */
import type { ChildProcess } from 'node:child_process';

export interface Supervised {
	hasExited(): boolean;
	/** `gentle` signal, `hard` after 20 s; resolves when the process is gone. */
	stop(): Promise<void>;
}

/** Watches `child`; should this process exit first, `hard` goes to the child so that it does not linger. */
export function supervise(child: ChildProcess, gentle: NodeJS.Signals, hard: NodeJS.Signals): Supervised {
	let exited = false;
	const exitPromise = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
	const killOnExit = () => signal(child.pid!, hard);
	process.on('exit', killOnExit);
	return {
		hasExited: () => exited,
		async stop() {
			process.off('exit', killOnExit);
			if (exited) return;
			signal(child.pid!, gentle);
			const timer = setTimeout(() => signal(child.pid!, hard), 20_000);
			await exitPromise;
			clearTimeout(timer);
		},
	};
}

function signal(pid: number, name: NodeJS.Signals): void {
	try {
		process.kill(pid, name);
	} catch {
		// already gone
	}
}
