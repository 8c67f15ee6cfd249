import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	NodeParameterValueType,
} from 'n8n-workflow';

/** Every n8n context from which the transport may be called. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

function isExecuteContext(context: ApiContext): context is IExecuteFunctions {
	return 'getInputData' in context && typeof context.getInputData === 'function';
}

/** Reads a node parameter in any context; the item index applies only where items exist. */
export function readParameter<T extends NodeParameterValueType | object>(
	context: ApiContext,
	name: string,
	itemIndex: number | undefined,
	fallback: T,
): T {
	if (isExecuteContext(context)) {
		return context.getNodeParameter(name, itemIndex ?? 0, fallback) as T;
	}
	return (context as IPollFunctions).getNodeParameter(name, fallback) as T;
}

/** The execution's cancel signal, where the context has one (polls and editor lookups have none). */
export function cancelSignalOf(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context && typeof context.getExecutionCancelSignal === 'function'
		? context.getExecutionCancelSignal()
		: undefined;
}
