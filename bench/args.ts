/** Command-line flags of the benchmarks: `--name value`. */

/** The number after `--name`, or the fallback when the flag is absent; anything else than a number stops the run. */
export function numberFlag(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	if (index < 0) return fallback;
	const value = Number(process.argv[index + 1]);
	if (!Number.isFinite(value)) throw new Error(`--${name} takes a number, not "${process.argv[index + 1] ?? ''}"`);
	return value;
}

/** The text after `--name`, or the fallback when the flag is absent. */
export function textFlag(name: string, fallback = ''): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}
