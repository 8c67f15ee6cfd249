/**
 * The webhook round trip of the queue suites: a file posted to main's webhook is uploaded (Wait
 * for Completion, values) and downloaded on a worker; main serves the downloaded binary as the
 * editor fetches it. Returns the binary's id (its prefix names the binary data mode).
 */
import { INVOICE_EXPECTED, invoiceText } from '../../dev/documents';
import { executionOutput, listExecutions } from '../../dev/n8n/n8n-stack';
import type { QueueStack } from '../../dev/n8n/queue/queue-stack';
import { waitFor } from '../e2e/helpers';
import { WEBHOOK_PATH, WEBHOOK_UPLOAD, mainEnqueued, workerThatRan } from '../../dev/n8n/queue/workflows';

export async function webhookFileThroughWorker(stack: QueueStack): Promise<string> {
	const text = invoiceText();
	// n8n answers 404 for a moment after activation: retry until the webhook is registered.
	const answer = await waitFor(
		'the webhook to answer',
		async () => {
			const response = await fetch(`${stack.main.url}/webhook/${WEBHOOK_PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="webhook-invoice.txt"' },
				body: text,
			});
			if (response.status === 404) return undefined;
			return { status: response.status, body: await response.text() };
		},
		60_000,
		1000,
	);
	expect(answer.status).toBe(200);
	const answered = JSON.parse(answer.body) as Record<string, unknown>;
	expect(answered).toMatchObject({ fileName: 'webhook-invoice.txt', status: 'processed' });

	const [execution] = await waitFor('the webhook execution', async () => {
		const done = (await listExecutions(stack.main, WEBHOOK_UPLOAD.id!)).filter((record) => record.stoppedAt);
		return done.length ? done : undefined;
	}, 60_000);
	expect(execution.status).toBe('success');
	expect(execution.mode).toBe('webhook');
	expect(mainEnqueued(stack, execution.id)).toBe(true);
	expect(await workerThatRan(stack, execution.id)).toMatch(/^worker-[12]$/);

	const [uploaded] = executionOutput(execution, 'Upload and wait');
	expect(uploaded).toMatchObject({ fileName: 'webhook-invoice.txt', status: 'processed', values: INVOICE_EXPECTED });
	// The emulator received exactly the bytes posted to main.
	const stored = stack.emulator.state.files.get(String(uploaded.fileId));
	expect(stored?.fileSize).toBe(Buffer.byteLength(text));

	// The Download's binary, written by the worker into n8n's binary storage, as the editor fetches it from main.
	const runs = (execution.data?.resultData.runData['Download it'] ?? []) as Array<{ data?: { main?: Array<Array<{ binary?: Record<string, { id?: string; fileName?: string }> }>> } }>;
	const binary = runs[0]?.data?.main?.[0]?.[0]?.binary?.data;
	const view = await stack.main.request(`/rest/binary-data?id=${encodeURIComponent(binary!.id!)}&action=view`);
	expect(view.status).toBe(200);
	expect(await view.text()).toBe(text);
	expect(binary?.id).toBeDefined();
	return binary!.id!;
}
