/** Reading the request log in tests: waiting for a request without sleeping, finding a secret. */
import type { EventEmitter } from 'node:events';
import type { EmulatorEvents, RequestLogEntry } from './request-log';

/** The parts of an emulator the log helpers read. */
export interface RequestLogSource {
	requests: RequestLogEntry[];
	events: EventEmitter<EmulatorEvents>;
}

export interface WaitOptions {
	/** Default 10000. */
	timeoutMs?: number;
}

function describeLog(requests: RequestLogEntry[]): string {
	if (requests.length === 0) return 'the log is empty';
	const last = requests.slice(-5).map((entry) => `${entry.host} ${entry.method} ${entry.path} ${entry.status}${entry.fault ? ` (${entry.fault})` : ''}`);
	return `${requests.length} logged, the last: ${last.join('; ')}`;
}

/**
 * Resolves with the first logged request matching `predicate`: one already in the log, or the
 * first that matches when it arrives or when its status is settled (both moments are checked).
 */
export function waitForRequest(
	emu: RequestLogSource,
	predicate: (entry: RequestLogEntry) => boolean,
	{ timeoutMs = 10000 }: WaitOptions = {},
): Promise<RequestLogEntry> {
	try {
		const logged = emu.requests.find(predicate);
		if (logged) return Promise.resolve(logged);
	} catch (error) {
		return Promise.reject(error);
	}
	return new Promise((resolve, reject) => {
		const stop = () => {
			clearTimeout(timer);
			emu.events.off('request', check);
			emu.events.off('response', check);
		};
		const check = (entry: RequestLogEntry) => {
			let matched: boolean;
			try {
				matched = predicate(entry);
			} catch (error) {
				stop();
				reject(error);
				return;
			}
			if (!matched) return;
			stop();
			resolve(entry);
		};
		const timer = setTimeout(() => {
			stop();
			reject(new Error(`waitForRequest: no request matched within ${timeoutMs} ms (${describeLog(emu.requests)})`));
		}, timeoutMs);
		emu.events.on('request', check);
		emu.events.on('response', check);
	});
}

function decoded(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

/** user:password of a Basic authorization value (URL credentials end up there). */
function basicCredentials(value: string): string[] {
	const match = /^basic\s+(\S+)\s*$/i.exec(value);
	return match ? [Buffer.from(match[1], 'base64').toString('utf8')] : [];
}

function headerTexts(entry: RequestLogEntry): string[] {
	const texts: string[] = [...entry.rawHeaders];
	for (const [name, value] of Object.entries(entry.headers)) {
		texts.push(name);
		if (value !== undefined) texts.push(...[value].flat());
	}
	return [...texts, ...texts.flatMap(basicCredentials)];
}

/** Everything of a request a secret could travel in: headers, path and query, raw and decoded. */
function searchableTexts(entry: RequestLogEntry): string[] {
	const query = Object.entries(entry.query).flatMap(([name, value]) => [name, ...[value].flat()]);
	return [entry.path, decoded(entry.path), entry.rawQuery, decoded(entry.rawQuery), ...query, ...headerTexts(entry)];
}

/** Every logged request (any host) whose headers, path or query contain `secret`. */
export function requestsCarrying(emu: Pick<RequestLogSource, 'requests'>, secret: string): RequestLogEntry[] {
	if (secret === '') throw new Error('requestsCarrying: the secret must not be empty');
	return emu.requests.filter((entry) => searchableTexts(entry).some((text) => text.includes(secret)));
}

/** The requests carrying the API key to a host other than the API (storage or trap). */
export function keyLeaks(emu: Pick<RequestLogSource, 'requests'>, apiKey: string): RequestLogEntry[] {
	return requestsCarrying(emu, apiKey).filter((entry) => entry.host !== 'api');
}
