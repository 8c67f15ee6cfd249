import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

/** Every n8n context from which the transport may be called. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** The execution's cancel signal, where the context has one (polls and editor lookups have none). */
export function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context && typeof context.getExecutionCancelSignal === 'function'
		? context.getExecutionCancelSignal()
		: undefined;
}
