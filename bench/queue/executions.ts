/** What bench:queue asks n8n and sends it: the executions a burst made, the documents posted to a webhook, the slots in use. */
import { invoiceText } from '../../dev/documents';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';

/** Webhook POSTs sent again. */
export const posts = { repeated: 0 };

export interface ExecutionSummary {
	id: string;
	status: string;
	startedAt: string;
	stoppedAt: string | null;
}

export async function executionsSince(n8n: N8nInstance, workflowId: string, sinceMs: number): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ workflowId, limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await n8n.publicApi<{ data: ExecutionSummary[]; nextCursor?: string | null }>(`/executions?${query}`);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
		if (page.data.length && Date.parse(page.data[page.data.length - 1].startedAt) < sinceMs) break;
	} while (cursor);
	return all.filter((execution) => Date.parse(execution.startedAt) >= sinceMs - 1000);
}

/**
 * Executions of the workflow that the list left out. n8n 2.41.1 in queue mode left 6 of 200
 * finished callback executions out of `GET /executions` (measured; `GET /executions/{id}` gives
 * them, finished). A burst's executions are the only ones n8n makes meanwhile, so their ids are
 * consecutive: the ids around and between the listed ones are asked for one by one.
 */
export async function executionsLeftOut(n8n: N8nInstance, workflowId: string, sinceMs: number, listed: ExecutionSummary[], expected: number, cache: Map<string, ExecutionSummary | null>): Promise<ExecutionSummary[]> {
	if (listed.length === 0) return [];
	const ids = new Set(listed.map((execution) => Number(execution.id)));
	const lowest = Math.min(...ids);
	const highest = Math.max(...ids);
	const found: ExecutionSummary[] = [];
	for (let id = Math.max(1, lowest - (expected - listed.length)); id <= highest + (expected - listed.length); id++) {
		if (ids.has(id)) continue;
		const key = String(id);
		let execution = cache.get(key);
		if (execution === undefined || execution?.stoppedAt === null) {
			execution = await n8n.publicApi<ExecutionSummary & { workflowId: string }>(`/executions/${id}`).then(
				(record) => (record.workflowId === workflowId && Date.parse(record.startedAt) >= sinceMs - 1000 ? record : null),
				() => null,
			);
			cache.set(key, execution);
		}
		if (execution) found.push(execution);
	}
	return found;
}

/** n8n's answers to a webhook POST that mean "send it again": 404 just after activation, 503 while main cannot reach its database. */
// 500: n8n 2.41.1's main answered "There was a problem executing the workflow" when its PostgreSQL
// pool timed out under a burst (measured: "timeout exceeded when trying to connect"); sent again
// and counted, as a 503 is (at worst one execution more than documents, which a burst reports).
const POST_AGAIN = new Set([404, 500, 503]);
/** Documents posted at once. */
const POST_PARALLEL = 20;
/** Executions n8n's list left out, by workflow (found one by one instead). */
export const leftOutOfList = new Map<string, number>();

export async function postAll(url: string, count: number): Promise<void> {
	// One document per execution, posted as the webhook's binary.
	let next = 0;
	const body = invoiceText();
	const poster = async () => {
		while (next < count) {
			const index = next++;
			for (let attempt = 0; ; attempt++) {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="bench-${index}.txt"` },
					body,
				});
				const answer = await response.text();
				if (response.ok) break;
				if (!POST_AGAIN.has(response.status) || attempt > 60) throw new Error(`webhook answered ${response.status} to document ${index}: ${answer.slice(0, 300)}`);
				posts.repeated += 1;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
		}
	};
	await Promise.all(Array.from({ length: POST_PARALLEL }, poster));
}

/** Counts, every second until stopped, the workflow's executions n8n lists as running and as waiting; returns the peaks. */
export function sampleSlots(n8n: N8nInstance, workflowId: string): { stop(): Promise<{ running: number; waiting: number }> } {
	let running = 0;
	let waiting = 0;
	let stopped = false;
	const count = async (status: string) => (await n8n.publicApi<{ data: unknown[] }>(`/executions?${new URLSearchParams({ workflowId, status, limit: '250' })}`)).data.length;
	const loop = (async () => {
		while (!stopped) {
			try {
				running = Math.max(running, await count('running'));
				waiting = Math.max(waiting, await count('waiting'));
			} catch {
				// a sample lost: the next one counts
			}
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	})();
	return {
		async stop() {
			stopped = true;
			await loop;
			return { running, waiting };
		},
	};
}
