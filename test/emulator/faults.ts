/** Fault injection: "the next N requests matching method/path do X". */

export type HostName = 'api' | 'storage';

export interface FaultMatch {
	/** HTTP method; any when absent. */
	method?: string;
	/** Exact path (with or without the /prod/v1 prefix) or a RegExp tested on the full path; any when absent. */
	path?: string | RegExp;
	/** Which listener; any when absent. */
	host?: HostName;
	/** How many matching requests this fault applies to (default 1). */
	count?: number;
}

/**
 * `before` (default): the request is not handled at all. `after` (API host only): the request
 * is handled completely (state changes, idempotency record stored), then the reply is replaced:
 * the "response lost" case that idempotency keys exist for.
 */
export type FaultPhase = 'before' | 'after';

export interface FailFault extends FaultMatch {
	phase?: FaultPhase;
	/** HTTP status to answer (default 500). */
	status?: number;
	/** Seconds; sets body retryAfter and the Retry-After header. */
	retryAfter?: number;
	/** Problem detail text. */
	detail?: string;
}

export interface DelayFault extends FaultMatch {
	delayMs: number;
}

export interface ResetFault extends FaultMatch {
	phase?: FaultPhase;
	/** Destroy the socket once this many body bytes have arrived (default 1; 0 = at once). */
	afterBytes?: number;
}

interface Pending<T> {
	spec: T;
	remaining: number;
}

export interface TakenFaults {
	fail?: FailFault;
	delay?: DelayFault;
	reset?: ResetFault;
}

function matches(spec: FaultMatch, host: HostName, method: string, path: string): boolean {
	if (spec.host && spec.host !== host) return false;
	if (spec.method && spec.method.toUpperCase() !== method) return false;
	if (spec.path === undefined) return true;
	if (spec.path instanceof RegExp) {
		spec.path.lastIndex = 0;
		return spec.path.test(path);
	}
	return spec.path === path || `/prod/v1${spec.path}` === path;
}

export class Faults {
	private fails: Array<Pending<FailFault>> = [];
	private delays: Array<Pending<DelayFault>> = [];
	private resets: Array<Pending<ResetFault>> = [];

	constructor(private readonly onExpirePresigned: () => number) {}

	/** The next `count` matching requests answer `status` (problem+json on the API host). */
	failNext(spec: FailFault): void {
		this.fails.push({ spec, remaining: spec.count ?? 1 });
	}

	/** The next `count` matching requests wait `delayMs` before being handled. */
	delayNext(spec: DelayFault): void {
		this.delays.push({ spec, remaining: spec.count ?? 1 });
	}

	/** The next `count` matching requests have their connection destroyed mid-body. */
	resetConnectionNext(spec: ResetFault = {}): void {
		this.resets.push({ spec, remaining: spec.count ?? 1 });
	}

	/** Every presigned URL issued so far stops working; returns how many were expired. */
	expirePresignedUrls(): number {
		return this.onExpirePresigned();
	}

	clear(): void {
		this.fails = [];
		this.delays = [];
		this.resets = [];
	}

	pending(): { fail: FailFault[]; delay: DelayFault[]; reset: ResetFault[] } {
		const view = <T extends FaultMatch>(list: Array<Pending<T>>) =>
			list.map((entry) => ({ ...entry.spec, count: entry.remaining, path: entry.spec.path instanceof RegExp ? entry.spec.path.toString() : entry.spec.path }) as T);
		return { fail: view(this.fails), delay: view(this.delays), reset: view(this.resets) };
	}

	/** Consumes at most one fault of each kind for this request. */
	take(host: HostName, method: string, path: string): TakenFaults {
		const delay = takeFrom(this.delays, host, method, path);
		const reset = takeFrom(this.resets, host, method, path);
		const fail = reset ? undefined : takeFrom(this.fails, host, method, path);
		return { delay, reset, fail };
	}
}

function takeFrom<T extends FaultMatch>(list: Array<Pending<T>>, host: HostName, method: string, path: string): T | undefined {
	const index = list.findIndex((entry) => matches(entry.spec, host, method, path));
	if (index < 0) return undefined;
	const entry = list[index];
	entry.remaining -= 1;
	if (entry.remaining <= 0) list.splice(index, 1);
	return entry.spec;
}
