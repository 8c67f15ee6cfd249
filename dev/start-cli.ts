/** What the two entry points (start.ts, start-queue.ts) share: their command-line options, free ports, output, the import marker. */
import * as fs from 'node:fs';
import * as net from 'node:net';

/** The command line a start script reads: its arguments, and the environment npm gives it. */
export interface CommandLine {
	argv: readonly string[];
	env: NodeJS.ProcessEnv;
}

const thisProcess = (): CommandLine => ({ argv: process.argv, env: process.env });

/**
 * `npm start --online` (without `--`) gives the flag to npm, not to the script: npm keeps it as its
 * own config and passes it on in the environment as npm_config_online=true. `--port=5000` arrives
 * as npm_config_port=5000; `--port 5000` as npm_config_port=true and a stray "5000".
 */
function fromNpm(name: string, line: CommandLine): string | undefined {
	return line.env[`npm_config_${name.replace(/-/g, '_')}`];
}

/** The value of `--name value` or `--name=value`, or of `npm start --name=value` (npm's config). */
export function option(name: string, line: CommandLine = thisProcess()): string | undefined {
	const index = line.argv.indexOf(`--${name}`);
	if (index >= 0) return line.argv[index + 1];
	const inline = line.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	if (inline !== undefined) return inline;
	const npm = fromNpm(name, line);
	return npm === undefined || npm === 'true' || npm === '' ? undefined : npm;
}

/** Whether `--name` was given, to the script or (`npm start --name`, without `--`) to npm. */
export function hasFlag(name: string, line: CommandLine = thisProcess()): boolean {
	return line.argv.includes(`--${name}`) || fromNpm(name, line) === 'true';
}

/**
 * What to say about options that reached npm instead of the script (given without `--`): a flag is
 * honoured, and the note says so and how to pass it directly; an option whose value npm separated
 * from it (`--port 5000`) cannot be read, and `error` says which command to run instead.
 */
export function npmOptionNotes(
	command: string,
	names: { flags: readonly string[]; options: readonly string[] },
	line: CommandLine = thisProcess(),
): { notes: string[]; error?: string } {
	const direct = (name: string) => line.argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
	const viaNpm = (name: string) => (direct(name) ? undefined : fromNpm(name, line) || undefined);
	const note = (name: string, value: string) =>
		`--${name} reached npm rather than this script (given without \`--\`); npm passed it on, so it is used. ${command} -- --${name}${value} passes it directly.`;
	const notes = [
		...names.flags.filter((name) => viaNpm(name) === 'true').map((name) => note(name, '')),
		...names.options.filter((name) => viaNpm(name) !== undefined && viaNpm(name) !== 'true').map((name) => note(name, ` ${viaNpm(name)}`)),
	];
	const lost = names.options.filter((name) => viaNpm(name) === 'true');
	const error = lost.length
		? `${lost.map((name) => `--${name}`).join(' and ')} reached npm without ${lost.length > 1 ? 'their values' : 'its value'} (npm keeps an option given without \`--\` and hands its value to the script as a stray argument), so nothing was started. Run: ${command} -- ${lost.map((name) => `--${name} <value>`).join(' ')}`
		: undefined;
	return { notes, error };
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
