import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BaseUrlError, resolveApiBase } from '../../credentials/hosts';
import { shown } from '../../credentials/shown';
import { CREDENTIAL_TYPE } from '../shared/api';
import { callbackReach } from '../shared/parameters';

/**
 * The trigger's webhook lifecycle (n8n calls it when the workflow is activated and deactivated).
 * The API has no endpoint to register a callback URL: the user sets the trigger's Production URL
 * as the key's default callback URL in the fileAI dashboard, or an Upload sends it. So there is
 * nothing at the service to look up, create or delete:
 * - checkExists: false (nothing to look up), so that n8n calls create on every activation;
 * - create: checks what activation can check without the network, and refuses to activate with a
 *   message naming the fix: the Production URL must be one the service can call (https; http only
 *   to a loopback n8n from a loopback Base URL, the emulator). No API request: an API that is
 *   down when n8n starts must not deactivate the trigger (the service would then get 404s and
 *   give up on its callbacks);
 * - delete: true (nothing registered); the README tells the user to clear the dashboard's setting.
 * Test URLs (the editor's "Execute step" on this node, "Execute workflow" on the canvas) are not
 * checked: a test call may come from anywhere.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	return false;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	if (this.getMode() === 'manual') return true;
	const text = this.getNodeWebhookUrl('default') ?? '';
	const reach = callbackReach(text);
	if (reach === 'https' || (reach === 'loopbackHttp' && (await apiIsOnLoopback(this)))) return true;
	throw new NodeOperationError(
		this.getNode(),
		`The service cannot call this trigger: its Production URL is ${shown(text)}, and the service calls only https addresses`,
		{
			description:
				"Set n8n's public address to an https URL the service can reach: the environment variable WEBHOOK_URL (on every n8n process, queue-mode webhook processes too), e.g. WEBHOOK_URL=https://n8n.example.com/. Then activate the workflow again and copy the new Production URL into the fileAI dashboard (the API key's default callback URL). An http URL is accepted only for an n8n on this machine talking to an API on this machine (the emulator).",
		},
	);
}

export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
	return true;
}

/** Whether the credential's Base URL is a loopback address (the emulator): only then may the trigger's URL be http. */
async function apiIsOnLoopback(context: IHookFunctions): Promise<boolean> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	try {
		return resolveApiBase(credentials).isLoopback;
	} catch (error) {
		throw new NodeOperationError(context.getNode(), error instanceof BaseUrlError ? error.message : (error as Error));
	}
}
