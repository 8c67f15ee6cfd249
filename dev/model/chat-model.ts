/**
 * The chat model of examples/agent-invoice-questions.json when it runs offline (`npm start`, the
 * end-to-end suite): the scripted model server (dev/model/scripted-model.ts) with the example's
 * script, and n8n's OpenAI credential pointed at it (the credential's Base URL, `url`).
 */
import { invoiceQuestionsScript } from './invoice-questions-script';
import { startScriptedModel, type ScriptedModel } from './scripted-model';

export const AGENT_EXAMPLE = 'agent-invoice-questions.json';

/** The OpenAI credential the agent example names (n8n's credential type `openAiApi`). */
export const CHAT_MODEL_CREDENTIAL_ID = 'dexChatModelCred1';
export const CHAT_MODEL_CREDENTIAL_NAME = 'OpenAI account';

/** n8n's OpenAI credential with its Base URL at `baseUrl` (plain JSON data: n8n encrypts it on import). */
export function chatModelCredential(baseUrl: string, id = CHAT_MODEL_CREDENTIAL_ID, name = CHAT_MODEL_CREDENTIAL_NAME): object {
	return { id, name, type: 'openAiApi', data: { apiKey: 'sk-offline-scripted-model', url: baseUrl, header: false } };
}

/** The scripted model on 127.0.0.1 (`port`, default a free one), answering as examples/agent-invoice-questions.json expects. */
export async function startOfflineChatModel(port = 0): Promise<ScriptedModel> {
	return await startScriptedModel(invoiceQuestionsScript, { port });
}
