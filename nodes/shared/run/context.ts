import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

/** Every n8n context from which the transport may be called (a webhook: the callback that resumes a waiting Upload). */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/** The execution's cancel signal, where the context has one (polls, editor lookups and webhook calls have none). */
export function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context && typeof context.getExecutionCancelSignal === 'function'
		? context.getExecutionCancelSignal()
		: undefined;
}
