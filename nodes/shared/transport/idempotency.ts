import { createHash, randomUUID } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/** Executions without an id (some embedded runs) still need keys unique to that run. */
const fallbackRunIds = new WeakMap<object, string>();

function runIdentity(context: IExecuteFunctions): string {
	const executionId = context.getExecutionId();
	if (executionId) return executionId;
	let runId = fallbackRunIds.get(context);
	if (!runId) {
		runId = `local-${randomUUID()}`;
		fallbackRunIds.set(context, runId);
	}
	return runId;
}

const executionNonces = new WeakMap<object, string>();

/**
 * A value that is random per execution and kept with the execution in n8n's database: the
 * token n8n puts in `$execution.resumeUrl` (n8n 2.x creates it with the execution's data). A
 * retry of the same execution, by "Retry On Fail" or by another queue-mode worker after a
 * stall, reads the same token; an execution of another n8n database (a restored backup, a
 * staging copy, a reset) with the same encryption key and execution id has another one.
 * n8n 1.x has no such token: there it is empty.
 */
function executionNonce(context: IExecuteFunctions, itemIndex: number): string {
	let nonce = executionNonces.get(context);
	if (nonce === undefined) {
		const resumeUrl = context.getWorkflowDataProxy(itemIndex).$execution?.resumeUrl;
		try {
			nonce = typeof resumeUrl === 'string' ? new URL(resumeUrl).search : '';
		} catch {
			nonce = '';
		}
		executionNonces.set(context, nonce);
	}
	return nonce;
}

function runIndexOf(context: IExecuteFunctions, itemIndex: number): number {
	const proxy = context.getWorkflowDataProxy(itemIndex);
	return typeof proxy.$runIndex === 'number' ? proxy.$runIndex : 0;
}

function stableStringify(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * The Idempotency-Key for one mutating call site of one item.
 *
 * It is derived, not random: the n8n instance, workflow, execution (its id and its random
 * per-execution token, see executionNonce), node, run and item, the call site (e.g.
 * "file.upload") and the request body. So every retry of the same call, by the transport, by
 * n8n's "Retry On Fail" or by a queue-mode worker that takes over a stalled job, sends the same
 * key and the API replays the first answer instead of acting twice, while a different item,
 * run, execution, database or body never shares a key.
 * Formatted as a version-4 UUID (the API recommends UUIDv4; at most 255 characters).
 */
export function idempotencyKey(
	context: IExecuteFunctions,
	itemIndex: number,
	callSite: string,
	body?: unknown,
): string {
	const node = context.getNode();
	const material = [
		context.getInstanceId(),
		context.getWorkflow().id ?? '',
		runIdentity(context),
		executionNonce(context, itemIndex),
		node.id || node.name,
		runIndexOf(context, itemIndex),
		itemIndex,
		callSite,
		stableStringify(body ?? null),
	].join('\u0000');
	return asUuid(material);
}

/** SHA-256 of `material`, formatted as a version-4 UUID (the API recommends UUIDv4; at most 255 characters). */
function asUuid(material: string): string {
	const hex = createHash('sha256').update(material).digest('hex');
	const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
	return [
		hex.slice(0, 8),
		hex.slice(8, 12),
		`4${hex.slice(13, 16)}`,
		`${variant}${hex.slice(17, 20)}`,
		hex.slice(20, 32),
	].join('-');
}

/**
 * The Idempotency-Key of a claim across n8n processes (nodes/shared/callbacks/claim.ts): derived
 * from the n8n instance and what is claimed only, so that every process of one n8n derives the
 * same key for it, and the API lets the first request with it through.
 */
export function claimIdempotencyKey(context: { getInstanceId(): string }, subject: string[]): string {
	return asUuid(['document-extraction-claim', context.getInstanceId(), ...subject].join('\u0000'));
}
