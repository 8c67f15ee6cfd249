/**
 * Workflows and helpers of the queue-mode suites (test/queue): a webhook that uploads what it
 * receives and downloads the result, a large upload read from disk, and reading n8n's records of
 * which worker ran an execution.
 */
import * as fs from 'node:fs';

import { INVOICE_LINES } from '../../documents';
import { EMULATOR_CREDENTIAL_ID, EMULATOR_CREDENTIAL_NAME, NODE_TYPE, type WorkflowJson } from '../n8n-stack';
import type { QueueStack } from './queue-stack';

export const CREDENTIALS = { documentExtractionApi: { id: EMULATOR_CREDENTIAL_ID, name: EMULATOR_CREDENTIAL_NAME } };

export const WEBHOOK_PATH = 'dex-queue-upload';

/** Webhook (main) -> Upload, wait, values (worker) -> Download the stored file (worker); answers with the Download's item. */
export const WEBHOOK_UPLOAD: WorkflowJson = {
	id: 'dexQueueWebhook1',
	name: 'queue e2e: a file by webhook, uploaded and downloaded on a worker',
	nodes: [
		{
			id: 'w1',
			name: 'File arrives',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '5d0c4b8e-6a55-4c59-9f2a-0e5a7c1d0b11',
			parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'lastNode', options: { binaryPropertyName: 'data' } },
		},
		{
			id: 'w2',
			name: 'Upload and wait',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [220, 0],
			parameters: {
				resource: 'file',
				operation: 'upload',
				binaryPropertyName: 'data',
				waitForCompletion: true,
				includeExtractedValues: true,
				simplify: true,
				options: { pollInterval: 1, mimeType: 'text/plain' },
			},
			credentials: CREDENTIALS,
		},
		{
			id: 'w3',
			name: 'Download it',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [440, 0],
			parameters: { resource: 'file', operation: 'download', fileId: { __rl: true, mode: 'id', value: '={{ $json.fileId }}' }, binaryPropertyName: 'data', options: {} },
			credentials: CREDENTIALS,
		},
	],
	connections: {
		'File arrives': { main: [[{ node: 'Upload and wait', type: 'main', index: 0 }]] },
		'Upload and wait': { main: [[{ node: 'Download it', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

/** Manual Trigger -> Read/Write Files (one file) -> Upload with the given options. */
export function diskUploadWorkflow(id: string, filePath: string, uploadOptions: Record<string, unknown>): WorkflowJson {
	return {
		id,
		name: `queue e2e: upload ${filePath.split('/').pop()} from disk`,
		nodes: [
			{ id: 'd1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'd2', name: 'Read the file', type: 'n8n-nodes-base.readWriteFile', typeVersion: 1.1, position: [220, 0], parameters: { operation: 'read', fileSelector: filePath, options: {} } },
			{
				id: 'd3',
				name: 'Upload in parts',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				parameters: { resource: 'file', operation: 'upload', binaryPropertyName: 'data', waitForCompletion: true, includeExtractedValues: true, simplify: true, options: { pollInterval: 1, waitTimeout: 600, ...uploadOptions } },
				credentials: CREDENTIALS,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Read the file', type: 'main', index: 0 }]] },
			'Read the file': { main: [[{ node: 'Upload in parts', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** A text invoice (values in its first lines) padded with filler lines to exactly `bytes`. */
export function writeLargeInvoiceFile(filePath: string, bytes: number): void {
	if (fs.existsSync(filePath) && fs.statSync(filePath).size === bytes) return;
	const head = Buffer.from(`${INVOICE_LINES.join('\n')}\n\n`);
	const filler = Buffer.alloc(1024 * 1024, 'filler line of the queue-mode e2e document, no values here\n');
	const fd = fs.openSync(filePath, 'w');
	try {
		fs.writeSync(fd, head);
		for (let written = head.length; written < bytes; ) {
			const piece = filler.subarray(0, Math.min(filler.length, bytes - written));
			fs.writeSync(fd, piece);
			written += piece.length;
		}
	} finally {
		fs.closeSync(fd);
	}
}

/** The worker that ran an execution according to the workers' own logs; waits a little for the log line to be flushed. */
export async function workerThatRan(stack: QueueStack, executionId: string): Promise<string | undefined> {
	for (let attempt = 0; attempt < 20; attempt++) {
		const worker = stack.workerOfExecution(executionId);
		if (worker) return worker;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return undefined;
}

/** Whether main's log says it put the execution on the queue ("Enqueued execution <id> (job <n>)"). */
export function mainEnqueued(stack: QueueStack, executionId: string): boolean {
	return new RegExp(`Enqueued execution ${executionId} \\(job`).test(stack.main.logs());
}
