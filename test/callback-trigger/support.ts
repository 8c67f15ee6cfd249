/**
 * What the Callback Trigger tests share: the trigger activated through the engine harness (a live
 * webhook on 127.0.0.1, as n8n serves it), the emulator calling it back as the key's default
 * callback URL, and the checks of exactly-once over everything it emitted.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import type { CallbackDelivery } from '../../dev/emulator/types';
import type { ActiveWebhookTrigger, WebhookTriggerOptions } from '../../dev/harness';
import { activateWebhookTrigger } from '../../dev/harness';
import { SEEDED_KEYS, credentialsFor } from '../node/support';

export { SEEDED_KEYS, credentialsFor };

export const CALLBACK_TRIGGER_TYPE = 'documentExtractionCallbackTrigger';

/** Every trigger a test activated is closed after it, also when the test failed half way. */
const activated = new Set<ActiveWebhookTrigger>();
afterEach(async () => {
	await Promise.all([...activated].map(async (trigger) => await trigger.close()));
	activated.clear();
});

/** The trigger activated with the emulator's credential (workspace A's read-write key unless told). */
export async function activateCallbackTrigger(
	emulator: Emulator,
	parameters: INodeParameters = {},
	options: Partial<WebhookTriggerOptions> & { apiKey?: string } = {},
): Promise<ActiveWebhookTrigger> {
	const trigger = await activateWebhookTrigger({
		type: CALLBACK_TRIGGER_TYPE,
		parameters,
		credentials: credentialsFor(emulator, options.apiKey),
		...options,
	});
	activated.add(trigger);
	return trigger;
}

/** Makes the trigger's URL the key's default callback URL, as the user does in the dashboard. */
export function callBackTo(emulator: Emulator, trigger: ActiveWebhookTrigger, apiKey: string = SEEDED_KEYS.readWrite): void {
	emulator.setDefaultCallbackUrl(apiKey, trigger.localUrl);
}

/** The emulator's callback retries in these tests: as the service (5), 50 ms apart at first. */
export const CALLBACK_RETRIES = 5;
export const EMULATOR_OPTIONS = { callbackRetries: CALLBACK_RETRIES, callbackRetryBaseMs: 50 };

function deliveryEnded(delivery: CallbackDelivery): boolean {
	if (delivery.reason !== undefined || delivery.delivered) return true;
	return delivery.attempts === CALLBACK_RETRIES + 1 && (delivery.lastStatus !== undefined || delivery.lastError !== undefined);
}

/**
 * Waits until the emulator has no processing running, every callback delivery has ended (delivered,
 * or its last retry answered) and the trigger has no call in its webhook(), twice in a row.
 */
export async function callbacksSettled(emulator: Emulator, trigger: ActiveWebhookTrigger): Promise<CallbackDelivery[]> {
	const deadline = Date.now() + 60_000;
	let quietChecks = 0;
	while (quietChecks < 2) {
		await emulator.idle();
		await trigger.settled();
		quietChecks = emulator.state.callbacks.every(deliveryEnded) ? quietChecks + 1 : 0;
		if (Date.now() > deadline) throw new Error('callbacks still being delivered after 60 s');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return emulator.state.callbacks;
}

/** File ids of every item the trigger emitted, in order. */
export function emittedFileIds(trigger: ActiveWebhookTrigger): string[] {
	return trigger.items().map((item) => String(item.json.fileId));
}

/** The same file ids more than once. */
export function duplicatesOf(ids: string[]): string[] {
	const seen = new Set<string>();
	const twice = new Set<string>();
	for (const id of ids) (seen.has(id) ? twice : seen).add(id);
	return [...twice];
}

/** The GET /uploads/{id} requests the emulator received, oldest first. */
export function statusRequests(emulator: Emulator): IDataObject[] {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && /\/uploads\//.test(entry.path)) as unknown as IDataObject[];
}

/** A final callback's body as the service sends it (api-notes): completed, with the file ids as a string. */
export function completedBody(uploadId: string, fileIds: string | string[] | undefined = undefined): IDataObject {
	return { status: 'completed', step: 'processing_finished', uploadId, timestamp: new Date().toISOString(), ...(fileIds === undefined ? {} : { fileIds }) };
}
