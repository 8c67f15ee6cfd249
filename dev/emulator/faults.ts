/** Fault injection: "the next N requests matching method/path do X". */

/** `trap` is the third listener: "some other host" that must never receive the API key. */
export type HostName = 'api' | 'storage' | 'trap';

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
	/**
	 * The exact value of the problem body's `retryAfter` (any JSON value). When the key is present
	 * with value undefined or '(omit)', the body has no retryAfter. Absent: `retryAfter` decides.
	 */
	retryAfterBody?: unknown;
	/** The exact Retry-After header text; '(omit)' sends none. Absent: `retryAfter` decides. */
	retryAfterHeader?: string;
	/** Problem detail text (the XML Message on the storage host). */
	detail?: string;
	/**
	 * Fields merged over the problem+json body as given (title, code, errors, requestId, …), for a
	 * service that answers whatever it likes. API host only.
	 */
	problem?: Record<string, unknown>;
	/** The answer's body as is, as text/html (a proxy's error page), instead of problem+json or XML. */
	rawBody?: string;
}

export interface DelayFault extends FaultMatch {
	delayMs: number;
}

export interface ResetFault extends FaultMatch {
	phase?: FaultPhase;
	/** Destroy the socket once this many body bytes have arrived (default 1; 0 = at once). */
	afterBytes?: number;
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export interface RedirectFault extends FaultMatch {
	/** Default 302. */
	status?: RedirectStatus;
	/** The Location header; default: the trap host with the request's path and query string. */
	location?: string;
}

/**
 * `no-answer`: the body is read and nothing is ever sent. `stall-body` / `close-body`: the request
 * is handled, the status line, the headers and the first `afterBytes` body bytes are sent, then
 * nothing more (the socket stays open) or the socket is destroyed.
 */
export type HangMode = 'no-answer' | 'stall-body' | 'close-body';

export interface HangFault extends FaultMatch {
	/** Default 'no-answer'. */
	mode?: HangMode;
	/** Body bytes sent before the stall or close (default: half of the body, rounded down). */
	afterBytes?: number;
}

export interface RewriteUrlsFault extends FaultMatch {
	/**
	 * Replaces every presigned URL of the answer. Placeholders: {original} (the whole URL),
	 * {path}, {query} (without '?') and {trap} (the trap host root).
	 */
	url: string;
}

/**
 * A slow peer. `answer`: the answer (headers at once, then the body) is sent `chunkBytes` at a
 * time at `bytesPerSecond`. `request` (storage PUT): the request body is read at that speed.
 */
export interface TrickleFault extends FaultMatch {
	direction?: 'answer' | 'request';
	/** Default 2 (a few bytes per second). */
	bytesPerSecond?: number;
	/** Bytes written or read per step (default 1). */
	chunkBytes?: number;
}

/** A 200 JSON answer of `bytes` bytes (a valid list whose one item carries a huge field), streamed. */
export interface HugeAnswerFault extends FaultMatch {
	bytes: number;
	/** Whether the answer says its Content-Length (default false: chunked). */
	withContentLength?: boolean;
}

/**
 * A multipart initiation answered with another part plan (API host): part i gets `sizes[i]`
 * bytes, the URLs of the real plan reused (the last one repeated when there are more parts).
 */
export interface PartPlanFault extends FaultMatch {
	sizes: number[];
}

/** List requests answered as if `page` were 1, whatever was asked (a service that ignores paging). */
export type IgnorePageFault = FaultMatch;

/**
 * In process only (a function cannot go over the control API): the JSON answer of the matching
 * API requests is replaced by what `edit` returns from a copy of it, for a service that answers
 * keys or values no handler writes (a key "__proto__", an id ".."). An object made by JSON.parse
 * keeps "__proto__" as an own key, and JSON.stringify writes it out as such. Returning a JsonText
 * (http-util.ts) sends that text as the answer, for JSON that JSON.stringify cannot write.
 */
export interface EditAnswerFault extends FaultMatch {
	edit(body: unknown): unknown;
}
/** List answers whose first item comes twice, the copy right after it (API host). */
export type RepeatIdFault = FaultMatch;

interface Pending<T> {
	spec: T;
	remaining: number;
}

export interface TakenFaults {
	fail?: FailFault;
	delay?: DelayFault;
	reset?: ResetFault;
	redirect?: RedirectFault;
	hang?: HangFault;
	rewrite?: RewriteUrlsFault;
	trickle?: TrickleFault;
	huge?: HugeAnswerFault;
	ignorePage?: IgnorePageFault;
	partPlan?: PartPlanFault;
	edit?: EditAnswerFault;
	repeatId?: RepeatIdFault;
}

export interface PendingFaults {
	fail: FailFault[];
	delay: DelayFault[];
	reset: ResetFault[];
	redirect: RedirectFault[];
	hang: HangFault[];
	rewrite: RewriteUrlsFault[];
	trickle: TrickleFault[];
	huge: HugeAnswerFault[];
	ignorePage: IgnorePageFault[];
	partPlan: PartPlanFault[];
	edit: EditAnswerFault[];
	repeatId: RepeatIdFault[];
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

type FaultKind = keyof PendingFaults;

/** The faults waiting for a request, one queue per kind. */
type Queues = { [K in FaultKind]: Array<Pending<PendingFaults[K][number]>> };

/** The queues, in the order pending() lists them. */
function emptyQueues(): Queues {
	return { fail: [], delay: [], reset: [], redirect: [], hang: [], rewrite: [], trickle: [], huge: [], ignorePage: [], partPlan: [], edit: [], repeatId: [] };
}

export class Faults {
	private queues = emptyQueues();

	constructor(private readonly onExpirePresigned: () => number) {}

	/** The next `count` matching requests answer `status` (problem+json on the API host). */
	failNext(spec: FailFault): void {
		this.add('fail', spec);
	}

	/** The next `count` matching requests wait `delayMs` before being handled. */
	delayNext(spec: DelayFault): void {
		this.add('delay', spec);
	}

	/** The next `count` matching requests have their connection destroyed mid-body. */
	resetConnectionNext(spec: ResetFault = {}): void {
		this.add('reset', spec);
	}

	/** The next `count` matching requests answer a redirect (default 302 to the trap host). */
	redirectNext(spec: RedirectFault = {}): void {
		this.add('redirect', spec);
	}

	/** The next `count` matching requests get no answer, or a body cut short (see HangMode). */
	hangNext(spec: HangFault = {}): void {
		this.add('hang', spec);
	}

	/** The presigned URLs in the next `count` matching API answers are replaced (API host only). */
	rewriteUrlsNext(spec: RewriteUrlsFault): void {
		this.add('rewrite', spec);
	}

	/** The next `count` matching requests are answered (or read) a few bytes at a time. */
	trickleNext(spec: TrickleFault = {}): void {
		this.add('trickle', spec);
	}

	/** The next `count` matching requests get a 200 JSON answer of `bytes` bytes. */
	hugeAnswerNext(spec: HugeAnswerFault): void {
		this.add('huge', spec);
	}

	/** The next `count` matching list requests ignore their `page` parameter. */
	ignorePageNext(spec: IgnorePageFault = {}): void {
		this.add('ignorePage', spec);
	}

	/** The next `count` matching multipart initiations answer the part plan `sizes`. */
	partPlanNext(spec: PartPlanFault): void {
		this.add('partPlan', spec);
	}

	/** The next `count` matching API answers are replaced by `edit(copy of the answer)` (API host only). */
	editAnswerNext(spec: EditAnswerFault): void {
		this.add('edit', spec);
	}

	/** In the next `count` matching API answers the first listed item comes twice. */
	repeatIdNext(spec: RepeatIdFault = {}): void {
		this.add('repeatId', spec);
	}

	/** Every presigned URL issued so far stops working; returns how many were expired. */
	expirePresignedUrls(): number {
		return this.onExpirePresigned();
	}

	clear(): void {
		this.queues = emptyQueues();
	}

	pending(): PendingFaults {
		const view = (list: Array<Pending<FaultMatch>>) =>
			list.map((entry) => ({ ...entry.spec, count: entry.remaining, path: entry.spec.path instanceof RegExp ? entry.spec.path.toString() : entry.spec.path }));
		return Object.fromEntries(Object.entries(this.queues).map(([kind, list]) => [kind, view(list)])) as unknown as PendingFaults;
	}

	/**
	 * Consumes at most one fault of each kind for this request, and at most one of those that
	 * replace the answer (reset, fail, redirect, hang, in that order). A URL rewrite and an answer
	 * edit are taken only by an API request that will be answered.
	 */
	take(host: HostName, method: string, path: string): TakenFaults {
		const from = <K extends FaultKind>(kind: K) => takeFrom(this.queues[kind] as Array<Pending<PendingFaults[K][number]>>, host, method, path);
		const delay = from('delay');
		const reset = from('reset');
		const fail = reset ? undefined : from('fail');
		const redirect = reset || fail ? undefined : from('redirect');
		const hang = reset || fail || redirect ? undefined : from('hang');
		const huge = reset || fail || redirect || hang ? undefined : from('huge');
		const noAnswer = Boolean(reset || fail || redirect || huge || (hang && (hang.mode ?? 'no-answer') === 'no-answer'));
		const rewrite = host === 'api' && !noAnswer ? from('rewrite') : undefined;
		const trickle = reset || fail || redirect || hang ? undefined : from('trickle');
		const ignorePage = noAnswer ? undefined : from('ignorePage');
		const partPlan = host === 'api' && !noAnswer ? from('partPlan') : undefined;
		const edit = host === 'api' && !noAnswer ? from('edit') : undefined;
		const repeatId = host === 'api' && !noAnswer ? from('repeatId') : undefined;
		return { delay, reset, fail, redirect, hang, rewrite, trickle, huge, ignorePage, partPlan, edit, repeatId };
	}

	private add<K extends FaultKind>(kind: K, spec: PendingFaults[K][number]): void {
		(this.queues[kind] as Array<Pending<PendingFaults[K][number]>>).push({ spec, remaining: spec.count ?? 1 });
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
