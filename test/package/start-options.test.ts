/**
 * `npm start --online` (without `--`): npm takes the flag as its own config and passes it to the
 * script only in the environment (npm_config_online=true), so the script read it from argv alone and
 * started offline without a word. Now a flag that reached npm is honoured and a line says so; an
 * option whose value npm split off (`npm start --port 5000`: npm_config_port=true and a stray
 * "5000") stops the start with the command to run. What npm does is read from npm itself
 * (`npm start` of a package whose start script prints what it got).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { hasFlag, npmOptionNotes, option, type CommandLine } from '../../dev/start-cli';

const START = { flags: ['online', 'fresh'], options: ['port', 'emulator-port', 'model-port'] };

let work: string;

beforeAll(() => {
	// A package whose start script prints the command line npm gives it (its arguments and npm's config).
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-npm-start-'));
	const print = 'console.log(JSON.stringify({ argv: process.argv, env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("npm_config_"))) }))';
	fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'start-options', version: '1.0.0', scripts: { start: `node -e '${print}'` } }));
});

afterAll(() => {
	fs.rmSync(work, { recursive: true, force: true });
});

/** The command line a start script gets from `npm start <args>`, as npm gives it. */
function asNpmPassesIt(args: string[]): CommandLine {
	const result = spawnSync('npm', ['start', '--silent', ...args], { cwd: work, encoding: 'utf8', timeout: 60_000 });
	expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({ status: 0, stderr: '' });
	return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as CommandLine;
}

describe('start options given without `--` reach npm, and are honoured or refused in words', () => {
	it('npm start --online: npm passes it as npm_config_online; the sandbox starts online and says why', () => {
		const line = asNpmPassesIt(['--online']);

		expect(line.env.npm_config_online).toBe('true');
		expect(hasFlag('online', line)).toBe(true);
		expect(npmOptionNotes('npm start', START, line)).toEqual({
			notes: ['--online reached npm rather than this script (given without `--`); npm passed it on, so it is used. npm start -- --online passes it directly.'],
			error: undefined,
		});
	});

	it('npm start --port=5000 --fresh: both used, each with its line', () => {
		const line = asNpmPassesIt(['--port=5000', '--fresh']);

		expect(option('port', line)).toBe('5000');
		expect(hasFlag('fresh', line)).toBe(true);
		expect(npmOptionNotes('npm start', START, line).notes).toEqual([
			'--fresh reached npm rather than this script (given without `--`); npm passed it on, so it is used. npm start -- --fresh passes it directly.',
			'--port reached npm rather than this script (given without `--`); npm passed it on, so it is used. npm start -- --port 5000 passes it directly.',
		]);
	});

	it('npm start --port 5000: the value is lost to npm, so nothing starts and the message gives the command', () => {
		const line = asNpmPassesIt(['--port', '5000']);

		expect(line.env.npm_config_port).toBe('true');
		expect(line.argv.slice(1)).toEqual(['5000']);
		expect(option('port', line)).toBeUndefined();
		expect(npmOptionNotes('npm start', START, line).error).toBe(
			'--port reached npm without its value (npm keeps an option given without `--` and hands its value to the script as a stray argument), so nothing was started. Run: npm start -- --port <value>',
		);
	});

	it('npm start -- --online: the script gets it itself, and nothing is said', () => {
		const line: CommandLine = { argv: ['node', 'dev/start.ts', '--online', '--port', '5001'], env: {} };

		expect(hasFlag('online', line)).toBe(true);
		expect(option('port', line)).toBe('5001');
		expect(npmOptionNotes('npm start', START, line)).toEqual({ notes: [], error: undefined });
	});

	it('plain npm start: offline, nothing said', () => {
		const line = asNpmPassesIt([]);

		expect(hasFlag('online', line)).toBe(false);
		expect(npmOptionNotes('npm start', START, line)).toEqual({ notes: [], error: undefined });
	});
});
