import { randomUUID } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

import type { ApiCall } from '../api';
import { claimFile } from '../api';

/**
 * The claim across n8n processes (docs/dev/callback-claim.md): the one "first one wins" that a
 * community node has when several n8n processes (main, `n8n webhook` processes) take callbacks is
 * the service's Idempotency-Key. A claim is one PATCH /files/{fileId} (export status `exporting`,
 * "queued or in progress") with a key derived from what is claimed (the same in every process)
 * and a body that names this process (random, per process):
 * - 2xx: this process wrote it (or, replayed, wrote it before and lost the answer): it owns it;
 * - 422 key reuse: another process wrote it first (within the API's 24 hours): it owns it;
 * - 409 (a request with the key in flight) or any other failure: not known yet; the caller answers
 *   503 and the service calls again.
 * Opt-in: it writes to the user's file (its export status and messages, shown in the service's file list).
 */

/** This process's name in a claim's body: random per process, the same for every claim it makes. */
const PROCESS_ID = randomUUID();

export type ClaimOutcome = 'ours' | 'theirs' | 'unknown';

export interface ClaimTarget {
	/** What is claimed, the same in every process (its Idempotency-Key: claimIdempotencyKey): e.g. the workflow, the node and the callback key. */
	subject: string[];
	/** The file whose export status carries the claim. */
	fileId: string;
	/** Shown in the file's export messages (what claimed it). */
	label: string;
}

function isKeyReuse(error: unknown): boolean {
	const { httpCode, message } = (error ?? {}) as { httpCode?: unknown; message?: unknown };
	return String(httpCode) === '422' && typeof message === 'string' && message.includes('Idempotency-Key');
}

/** Claims `target` for this process; `unknown` carries why (for the log). */
export async function claimAcrossProcesses(
	context: IWebhookFunctions,
	target: ClaimTarget,
	call: ApiCall,
): Promise<{ outcome: ClaimOutcome; reason?: string }> {
	const body = {
		integrationExportStatus: 'exporting' as const,
		integrationExportMessages: [`${target.label}: claimed by n8n process ${PROCESS_ID}`],
	};
	try {
		await claimFile(context, target.fileId, body, target.subject, call);
		return { outcome: 'ours' };
	} catch (error) {
		if (isKeyReuse(error)) return { outcome: 'theirs' };
		return { outcome: 'unknown', reason: error instanceof Error ? error.message : String(error) };
	}
}
