/**
 * Idempotency keys: stable across every retry of one logical request (the transport's own
 * retries, n8n's Retry On Fail, a queue-mode worker taking over a stalled execution, all of which
 * run the same stored execution), and unique across n8n databases: a second n8n with the same
 * encryption key and a fresh database reuses execution ids, but not the execution's random token.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { createBinaryItem, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, useEmulator, useFakeWaitClock } from './support';

const emulator = useEmulator();
useFakeWaitClock();

async function textItem(): Promise<INodeExecutionData> {
	return await createBinaryItem({ buffer: Buffer.from(invoiceText(), 'utf8'), fileName: INVOICE_FILE_NAME, mimeType: 'text/plain' });
}

/** One execution, as stored in a database: its id and the random token n8n created it with. */
async function uploadAs(execution: { executionId: string; resumeToken: string }) {
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', operation: 'upload', options: { pollInterval: 0.5 } },
		credentials: credentialsFor(emulator),
		inputItems: [await textItem()],
		...execution,
	});
}

const uploadKeys = () => requestsTo(emulator, 'api', 'POST', /\/files\/upload$/).map((entry) => entry.headers['idempotency-key']);
const documents = () => [...emulator.state.files.values()].filter((file) => file.fileName === INVOICE_FILE_NAME);

describe('Idempotency-Key across n8n databases', () => {
	it('execution 1 of a restored or copied database gets its own key and its own document', async () => {
		const before = documents().length;
		const original = await uploadAs({ executionId: '1', resumeToken: 'token-of-database-A' });
		const copy = await uploadAs({ executionId: '1', resumeToken: 'token-of-database-B' });

		expect(original.error).toBeUndefined();
		expect(copy.error).toBeUndefined();
		const [first, second] = uploadKeys();
		expect(first).not.toBe(second);
		// The copy's upload was not answered with the original's presigned URL: both documents exist.
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/upload$/).map((entry) => entry.status)).toEqual([200, 200]);
		expect(documents()).toHaveLength(before + 2);
		expect(copy.items[0].json.fileId).not.toBe(original.items[0].json.fileId);
	});

	it('the same stored execution run again (a worker taking over, Retry On Fail) sends the same key: no second document', async () => {
		const execution = { executionId: '7', resumeToken: 'token-of-execution-7' };
		const before = documents().length;
		const first = await uploadAs(execution);
		const again = await uploadAs(execution);

		expect(first.error).toBeUndefined();
		expect(again.error).toBeUndefined();
		const [key, repeated] = uploadKeys();
		expect(repeated).toBe(key);
		expect(documents()).toHaveLength(before + 1);
		expect(again.items[0].json.fileId).toBe(first.items[0].json.fileId);
	});
});
