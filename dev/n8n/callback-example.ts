/**
 * `npm start`'s stand-in for the default callback URL a user sets in the service's dashboard: while
 * the Callback Trigger example (examples/callback-trigger-on-processed-files.json) is published in
 * the sandbox's n8n, the emulator key's default callback URL is the example's Production URL;
 * while it is not, the key has none. So the emulator never calls a URL nobody listens at: n8n
 * would answer 404 and log "Received request for unknown webhook" for every step of every upload
 * and every retry of each (the service retries up to 5 times, /work/shared/api-notes.md), lines a
 * user reads as failures. An upload carries the URL its key had when it was made (as on the
 * service): one made just before the example is unpublished is still called back.
 *
 * n8n tells nobody when it starts or stops listening, so the follower asks it every `intervalMs`
 * (and once at start) the way its own webhook handler looks a call up: POST /rest/webhooks/find with
 * the URL's method and path answers the registered webhook or null, and logs nothing. (The
 * workflow's `active` flag is no such answer: n8n 2.41 stores it before it registers the webhook,
 * and for a moment after the publish request returns the URL still answers 404.) Checks run one
 * after another, so an older answer never overrides a newer one.
 */
import type { Emulator } from '../emulator';
import type { N8nInstance } from './n8n-launcher';
import { exampleCallbackUrl } from './n8n-stack';

export interface CallbackExampleFollower {
	/** Asks n8n now (after any check under way) and sets or clears the default callback URL; resolves whether n8n listens at the example's URL. */
	check(): Promise<boolean>;
	stop(): void;
}

/** Whether n8n finds a webhook for POST `path` (the part of the URL after /webhook/); not when n8n does not answer. */
async function isListening(n8n: Pick<N8nInstance, 'rest'>, path: string): Promise<boolean> {
	try {
		const webhook = await n8n.rest<unknown>('/webhooks/find', { method: 'POST', body: { method: 'POST', path } });
		return Boolean(webhook && typeof webhook === 'object');
	} catch {
		return false;
	}
}

export function followCallbackExample(options: {
	n8n: Pick<N8nInstance, 'rest' | 'url'>;
	emulator: Pick<Emulator, 'setDefaultCallbackUrl' | 'keys'>;
	/** How often to ask n8n; default 2 s. */
	intervalMs?: number;
	/** Told when the example becomes published or stops being so (not at the first check). */
	onChange?: (published: boolean) => void;
}): CallbackExampleFollower {
	const url = exampleCallbackUrl(options.n8n.url);
	const path = url.slice(url.indexOf('/webhook/') + '/webhook/'.length);
	const apiKey = options.emulator.keys.readWrite;
	let known: boolean | undefined;
	let timer: NodeJS.Timeout | undefined;
	let stopped = false;

	let last: Promise<boolean> = Promise.resolve(false);

	async function ask(): Promise<boolean> {
		const published = await isListening(options.n8n, path);
		if (stopped) return published;
		options.emulator.setDefaultCallbackUrl(apiKey, published ? url : undefined);
		if (known !== undefined && known !== published) options.onChange?.(published);
		known = published;
		return published;
	}

	/** One check after the one before it ends. */
	function check(): Promise<boolean> {
		last = last.catch(() => false).then(ask);
		return last;
	}

	function schedule(): void {
		if (stopped) return;
		timer = setTimeout(() => {
			void check().finally(schedule);
		}, options.intervalMs ?? 2000);
		timer.unref();
	}

	void check().finally(schedule);
	return {
		check,
		stop() {
			stopped = true;
			if (timer) clearTimeout(timer);
		},
	};
}
