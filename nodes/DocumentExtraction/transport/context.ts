import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	NodeParameterValueType,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/** Every n8n context from which the transport may be called. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export function isExecuteContext(context: ApiContext): context is IExecuteFunctions {
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

/** Waits, giving up early when the execution is cancelled. */
export async function pause(context: ApiContext, ms: number): Promise<void> {
	if (ms <= 0) return;
	const signal =
		'getExecutionCancelSignal' in context && typeof context.getExecutionCancelSignal === 'function'
			? context.getExecutionCancelSignal()
			: undefined;
	await sleep(ms, signal);
}
