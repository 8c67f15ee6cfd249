import type { IExecuteFunctions, IPollFunctions, NodeParameterValueType } from 'n8n-workflow';

import type { ApiContext } from '../run/context';

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
