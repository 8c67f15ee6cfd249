import { spawn } from 'node:child_process';

/** Runs a command to completion and resolves with its stdout; rejects with the tail of its output when it exits non-zero. */
export function runCommand(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited with ${code}:\n${(stdout + stderr).slice(-4000)}`)),
		);
	});
}
