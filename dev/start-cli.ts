/** What the two entry points (start.ts, start-queue.ts) share: their command-line options, free ports, output, the import marker. */
import * as fs from 'node:fs';
import * as net from 'node:net';

/** The value of `--name value` or `--name=value`. */
export function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	if (index >= 0) return process.argv[index + 1];
	return process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** Whether `--name` was given. */
export function hasFlag(name: string): boolean {
	return process.argv.includes(`--${name}`);
}

export function portIsFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer().once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

export function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

/** The fingerprint of what the last start imported (credentials, examples), from its marker file. */
export function importedFingerprint(markerPath: string): string | undefined {
	return fs.existsSync(markerPath) ? (JSON.parse(fs.readFileSync(markerPath, 'utf8')) as { fingerprint?: string }).fingerprint : undefined;
}

/**
 * The entry point's stop: once only, it prints `message`, runs `close` and exits with the code it
 * is given. Ctrl-C and SIGTERM call it with 0.
 */
export function stopper(message: string, close: () => Promise<void>): (code: number) => Promise<void> {
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say(message);
		await close();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	return stop;
}

/** Runs the entry point's main; an error prints its stack and exits 1. */
export function runMain(main: () => Promise<void>): void {
	main().catch((error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	});
}
