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
 * It is derived, not random: the n8n instance, workflow, execution, node, run and item, the call
 * site (e.g. "file.upload") and the request body. So every retry of the same call, by the
 * transport or by n8n's "Retry On Fail", sends the same key and the API replays the first answer
 * instead of acting twice, while a different item, run, execution or body never shares a key.
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
		node.id || node.name,
		runIndexOf(context, itemIndex),
		itemIndex,
		callSite,
		stableStringify(body ?? null),
	].join('\u0000');
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
