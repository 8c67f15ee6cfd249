/** Runs one operation of the Document Extraction node through the engine against an emulator. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Emulator } from '../../dev/emulator';
import { DEFAULT_NODE_NAME, runNode } from '../../dev/harness';
import type { BinaryDataMode, RunNodeResult } from '../../dev/harness';
import { credentialsFor } from './support';

export interface OperationRunOptions {
	apiKey?: string;
	continueOnFail?: boolean;
	inputItems?: INodeExecutionData[];
	binaryDataMode?: BinaryDataMode;
	/** The node's typeVersion (default: the newest). */
	typeVersion?: number;
}

export async function runOperation(
	emulator: Emulator,
	resource: string,
	operation: string,
	parameters: IDataObject = {},
	options: OperationRunOptions = {},
): Promise<RunNodeResult> {
	return await runNode({
		type: 'documentExtraction',
		typeVersion: options.typeVersion,
		parameters: { resource, operation, ...parameters },
		credentials: credentialsFor(emulator, options.apiKey),
		inputItems: options.inputItems,
		continueOnFail: options.continueOnFail,
		binaryDataMode: options.binaryDataMode,
	});
}

/** The execution hints the node added in its (first) run. */
export function hintsOf(run: RunNodeResult): Array<{ message: string; type?: string }> {
	return (run.result.runData[DEFAULT_NODE_NAME]?.[0]?.hints ?? []) as Array<{ message: string; type?: string }>;
}

/** API requests (method + path below /prod/v1) the emulator saw, oldest first. */
export function apiCalls(emulator: Emulator): string[] {
	return emulator.requests
		.filter((entry) => entry.host === 'api')
		.map((entry) => `${entry.method} ${entry.path.replace(/^\/prod\/v1/, '')}`);
}
