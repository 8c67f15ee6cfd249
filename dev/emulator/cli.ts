/**
 * Runs the emulator out of process until Ctrl-C.
 *   npm run emulator -- --port 8787 --storage-port 8788 [--trap-port 8789] --delay 300 [--rate-limit 100] [--data-dir DIR] [--no-seed] [--storage-sink]
 * Environment: EMULATOR_PORT, EMULATOR_STORAGE_PORT, EMULATOR_TRAP_PORT, EMULATOR_DELAY_MS,
 * EMULATOR_RATE_LIMIT, EMULATOR_DATA_DIR, EMULATOR_SEED=false, EMULATOR_STORAGE_SINK=true.
 */
import { startEmulator } from './index';

function argValue(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	if (index >= 0) return process.argv[index + 1];
	const inline = process.argv.find((arg) => arg.startsWith(`--${name}=`));
	return inline?.slice(name.length + 3);
}

function numberFrom(flag: string, env: string, fallback: number | undefined): number | undefined {
	const raw = argValue(flag) ?? process.env[env];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isFinite(value) || value < 0) {
		console.error(`Invalid --${flag} / ${env}: ${raw}`);
		process.exit(2);
	}
	return value;
}

async function main(): Promise<void> {
	if (process.argv.includes('--help')) {
		console.log('Usage: npm run emulator -- [--port 8787] [--storage-port 8788] [--trap-port 8789] [--delay 300] [--rate-limit N] [--data-dir DIR] [--no-seed] [--storage-sink]');
		return;
	}
	const rateLimit = numberFrom('rate-limit', 'EMULATOR_RATE_LIMIT', undefined);
	const sink = process.argv.includes('--storage-sink') || process.env.EMULATOR_STORAGE_SINK === 'true';
	const emulator = await startEmulator({
		port: numberFrom('port', 'EMULATOR_PORT', 8787),
		storagePort: numberFrom('storage-port', 'EMULATOR_STORAGE_PORT', 0),
		trapPort: numberFrom('trap-port', 'EMULATOR_TRAP_PORT', 0),
		processingDelayMs: numberFrom('delay', 'EMULATOR_DELAY_MS', 300),
		rateLimit: rateLimit ? { limit: rateLimit, windowMs: 1000 } : undefined,
		dataDir: argValue('data-dir') ?? process.env.EMULATOR_DATA_DIR,
		seed: !(process.argv.includes('--no-seed') || process.env.EMULATOR_SEED === 'false'),
		storageSink: sink,
	});
	console.log(`Document Extraction emulator
  API URL:      ${emulator.apiUrl}   (paths under /prod/v1)
  Storage URL:  ${emulator.storageUrl}${sink ? '   (sink mode: PUT bodies counted and MD5-hashed, not stored)' : ''}
  Trap URL:     ${emulator.trapUrl}   (stands for any other host; must never see the key)
  API key:      ${emulator.keys.readWrite}   (workspace A, read-write)
  Other keys:   read-only ${emulator.keys.readOnly}
                inactive  ${emulator.keys.inactive}
                workspace B ${emulator.keys.workspaceB}
  Control:      ${emulator.apiUrl}/__emulator/   (requests, faults, clock; see dev/emulator/README.md)
Press Ctrl-C to stop.`);
	const stop = async () => {
		await emulator.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

void main();
