/**
 * A logger that stands in for n8n's `Logger` service (from @n8n/backend-common) and for
 * n8n-workflow's `LoggerProxy`, keeping every line in memory so tests can read them: nodes log
 * through `this.logger`, which n8n-core resolves from the DI container at call time.
 */
import type { Logger as WorkflowLogger, LogMetadata } from 'n8n-workflow';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LogLine {
	level: LogLevel;
	message: string;
	metadata: LogMetadata | undefined;
	scopes: string[];
	/** message and metadata rendered as one string, for "never contains X" assertions */
	text: string;
}

function render(message: string, metadata: LogMetadata | undefined): string {
	if (metadata === undefined) return message;
	const seen = new WeakSet<object>();
	const json = JSON.stringify(metadata, (_key, value: unknown) => {
		if (value instanceof Error) {
			return { ...value, name: value.name, message: value.message, stack: value.stack };
		}
		if (Buffer.isBuffer(value)) return `<Buffer ${value.length} bytes>`;
		if (typeof value === 'object' && value !== null) {
			if (seen.has(value)) return '[Circular]';
			seen.add(value);
		}
		return value;
	});
	return `${message} ${json}`;
}

export class CapturingLogger implements WorkflowLogger {
	constructor(
		private readonly sink: LogLine[] = [],
		private readonly scopes: string[] = [],
		private readonly echo = process.env.HARNESS_LOG === '1',
	) {}

	/** All lines logged so far through this logger and every scoped child of it. */
	get lines(): readonly LogLine[] {
		return this.sink;
	}

	/** All lines rendered as text (message + JSON metadata), one per entry. */
	get text(): string[] {
		return this.sink.map((line) => line.text);
	}

	clear(): void {
		this.sink.length = 0;
	}

	scoped(scopes: string | string[]): CapturingLogger {
		return new CapturingLogger(this.sink, [...this.scopes, ...[scopes].flat()], this.echo);
	}

	error(message: string, metadata?: LogMetadata): void {
		this.log('error', message, metadata);
	}

	warn(message: string, metadata?: LogMetadata): void {
		this.log('warn', message, metadata);
	}

	info(message: string, metadata?: LogMetadata): void {
		this.log('info', message, metadata);
	}

	debug(message: string, metadata?: LogMetadata): void {
		this.log('debug', message, metadata);
	}

	private log(level: LogLevel, message: string, metadata: LogMetadata | undefined): void {
		const text = render(String(message), metadata);
		this.sink.push({ level, message: String(message), metadata, scopes: this.scopes, text });
		if (this.echo) process.stderr.write(`[harness ${level}] ${text}\n`);
	}
}
