/**
 * File > Review Values through n8n's engine and its waiting-webhook server (dev/harness/waiting.ts)
 * against the emulator: the page only for the link's holder, a submit that writes only the
 * changed values and resumes with the review, once; a submit naming another file, or a field that
 * changed type since the page was opened, refused by name with nothing written; the wait limit.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { INVOICE_FILE_NAME } from '../../dev/documents';
import { reviewResumeUrl } from '../../nodes/DocumentExtraction/actions/file/reviewValuesLink';
import { runNode } from '../../dev/harness';
import { call } from '../emulator/test-helpers';
import { NODE, useWaitingWebhooks } from './callback-wait-support';
import type { SeededFile } from './file-operations-support';
import { answerValuesFields, seedFile } from './file-operations-support';
import { credentialsFor, requestsTo, useEmulator } from './support';

const emulator = useEmulator();
const waiting = useWaitingWebhooks();

async function startReview(files: SeededFile[], parameters = {}) {
	const parked = await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', operation: 'reviewValues', fileId: '={{ $json.fileId }}', ...parameters },
		credentials: credentialsFor(emulator),
		inputItems: files.map((file): INodeExecutionData => ({ json: { fileId: file.fileId, n: file.fileName } })),
		observer: waiting,
		mode: 'webhook',
	});
	expect(parked.result.status).toBe('waiting');
	return { parked, executionId: parked.result.executionId, url: String(parked.items[0].json.reviewUrl) };
}

async function open(url: string) {
	const response = await fetch(url);
	return { status: response.status, headers: response.headers, text: await response.text() };
}

async function submit(url: string, payload: unknown) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
	});
	return { status: response.status, text: await response.text() };
}

async function storedValues(fileId: string): Promise<Record<string, unknown>> {
	const reply = await call(emulator, 'GET', `/files/${fileId}/values`, { query: { includeFullTableData: 'true' } });
	const fields = reply.body.values.formValues[0].fields as Array<{ title: string; value: unknown }>;
	return Object.fromEntries(fields.map((field) => [field.title, field.value]));
}

const patches = () => requestsTo(emulator, 'api', 'PATCH', /\/values$/);
const exportReports = () => requestsTo(emulator, 'api', 'PATCH', /^\/prod\/v1\/files\/[^/]+$/);

async function exportInfoOf(fileId: string) {
	const reply = await call(emulator, 'GET', '/files', { query: { fileIds: JSON.stringify([fileId]) } });
	const record = (reply.body.files as Array<Record<string, unknown>>)[0];
	return { status: record.integrationExportStatus, messages: record.integrationExportMessages };
}

let file: SeededFile;
beforeEach(async () => {
	file = await seedFile(emulator);
	emulator.requests.length = 0;
});

describe('File > Review Values', () => {
	it('serves the page to the holder of the link only: the document beside its fields, under a CSP without inline script', async () => {
		const { url } = await startReview([file]);
		const wrong = new URL(url);
		// As long as the secret in characters, twice as long in bytes: compared as bytes, refused, never thrown on.
		wrong.searchParams.set('dexReview', 'é'.repeat(64));
		const refused = await open(wrong.href);
		expect(refused.status).toBe(401);
		expect(requestsTo(emulator, 'api')).toHaveLength(0);

		const page = await open(url);
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		expect(page.headers.get('cache-control')).toBe('no-store');
		expect(page.headers.get('referrer-policy')).toBe('no-referrer');
		const csp = page.headers.get('content-security-policy') ?? '';
		expect(csp).toMatch(/script-src 'sha256-[^' ]+'(;|$)/);
		expect(csp).not.toMatch(/unsafe-inline/);
		expect(page.text).toContain(INVOICE_FILE_NAME);
		expect(page.text).toContain('Total Amount');
		expect(page.text).toMatch(/<iframe src="http:\/\/127\.0\.0\.1:\d+\/[^"]+"/);
		expect(page.text).not.toContain('Purchase Order Number');
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/preview$/)).toHaveLength(1);
	});

	it('asks a fresh preview link each time the page is opened: an expired one is never shown again', async () => {
		const { url } = await startReview([file]);
		const previewOf = (text: string) => /<iframe src="([^"]+)"/.exec(text)?.[1].replace(/&amp;/g, '&') ?? '';
		const first = previewOf((await open(url)).text);
		expect(emulator.faults.expirePresignedUrls()).toBeGreaterThan(0);
		expect((await fetch(first)).status).toBe(403);

		const second = previewOf((await open(url)).text);
		expect(second).not.toBe(first);
		expect((await fetch(second)).status).toBe(200);
		expect(requestsTo(emulator, 'api', 'POST', /\/files\/preview$/)).toHaveLength(2);
	});

	it('writes only the changed values, resumes with the review, and a second submit writes nothing', async () => {
		const { executionId, url } = await startReview([file]);
		const review = {
			files: [
				{
					fileId: file.fileId,
					decision: 'approve',
					note: 'Vendor & total fixed',
					changes: [
						{ field: 'Vendor Name', kind: 'string', value: 'Initech' },
						{ field: 'Total Amount', kind: 'number', value: '999.5' },
					],
				},
			],
		};
		// Someone else corrects another field while the page is open: the review must not write it back.
		await call(emulator, 'PATCH', `/files/${file.fileId}/values`, { body: { fields: [{ title: 'Currency', value: 'EUR' }] } });
		emulator.requests.length = 0;
		const [first, second] = await Promise.all([submit(url, review), submit(url, review)]);
		expect([first.status, second.status].sort()).toEqual([200, 409]);
		const output = (await waiting.whenEnded(executionId)).outputOf(NODE);

		expect(patches()).toHaveLength(1);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			fileId: file.fileId,
			decision: 'approved',
			note: 'Vendor & total fixed',
			changes: [
				{ field: 'Vendor Name', before: 'ACME Supplies Ltd.', after: 'Initech' },
				{ field: 'Total Amount', after: 999.5 },
			],
			values: { 'Vendor Name': 'Initech', 'Total Amount': 999.5, Currency: 'EUR' },
		});
		expect(typeof output[0].json.reviewedAt).toBe('string');
		expect(output[0].json.exportStatus).toBeUndefined();
		expect(exportReports()).toHaveLength(0);
		expect(await storedValues(file.fileId)).toMatchObject({ 'Vendor Name': 'Initech', 'Total Amount': 999.5, Currency: 'EUR' });

		const again = await submit(url, review);
		expect(again.status).toBe(409);
		expect(patches()).toHaveLength(1);
	});

	it('refuses a submit naming another file, and a field that changed type since the page was opened, writing nothing', async () => {
		const other = await seedFile(emulator, 'other.txt');
		const { executionId, url } = await startReview([file]);
		const foreign = await submit(url, { files: [{ fileId: other.fileId, decision: 'approve', note: '', changes: [{ field: 'Tax', kind: 'number', value: '1' }] }] });
		expect(foreign.status).toBe(400);
		expect(foreign.text).toContain('names another file');

		const values = (await call(emulator, 'GET', `/files/${file.fileId}/values`, { query: { includeFullTableData: 'true' } })).body.values.formValues[0].fields as Array<Record<string, unknown>>;
		answerValuesFields(emulator, values.map((field) => (field.title === 'Total Amount' ? { ...field, type: 'boolean', value: 'false' } : field)));
		const changed = await submit(url, { files: [{ fileId: file.fileId, decision: 'approve', note: '', changes: [{ field: 'Total Amount', kind: 'number', value: '1' }] }] });
		expect(changed.status).toBe(409);
		expect(changed.text).toContain('Total Amount');
		expect(changed.text).toContain('changed type');
		expect(patches()).toHaveLength(0);
		expect(waiting.statusOf(executionId)).toBe('waiting');
	});

	it('a rejection writes nothing; past the wait limit the input items come out unchanged', async () => {
		const rejected = await startReview([file]);
		const reject = await submit(rejected.url, { files: [{ fileId: file.fileId, decision: 'reject', note: 'not an invoice', changes: [{ field: 'Tax', kind: 'number', value: '1' }] }] });
		expect(reject.status).toBe(200);
		const [item] = (await waiting.whenEnded(rejected.executionId)).outputOf(NODE);
		expect(item.json).toMatchObject({ fileId: file.fileId, decision: 'rejected', changes: [], note: 'not an invoice' });
		expect(patches()).toHaveLength(0);

		const late = await startReview([file]);
		const ended = await waiting.resumeAtWaitTill(late.executionId);
		expect(ended.outputOf(NODE).map((output) => output.json)).toEqual([{ fileId: file.fileId, n: file.fileName }]);
	});

	it('with Report Export Status, sets each file\'s export status once, after its values are written: approved completed, rejected error with the note', async () => {
		const other = await seedFile(emulator, 'other.txt');
		emulator.requests.length = 0;
		const { executionId, url } = await startReview([file, other, file], { options: { reportExportStatus: true } });
		const sent = await submit(url, {
			files: [
				{ fileId: file.fileId, decision: 'approve', note: '', changes: [{ field: 'Total Amount', kind: 'number', value: '999.5' }] },
				{ fileId: other.fileId, decision: 'reject', note: 'Not an invoice', changes: [] },
				{ fileId: file.fileId, decision: 'approve', note: 'Checked twice', changes: [] },
			],
		});
		expect(sent.status).toBe(200);
		const output = (await waiting.whenEnded(executionId)).outputOf(NODE);

		const reports = exportReports();
		expect(reports.map((entry) => entry.path).sort()).toEqual([`/prod/v1/files/${file.fileId}`, `/prod/v1/files/${other.fileId}`].sort());
		const valuesWrite = patches().find((entry) => entry.path.includes(file.fileId));
		const fileReport = reports.find((entry) => entry.path.endsWith(file.fileId));
		expect(valuesWrite && fileReport && valuesWrite.sequence < fileReport.sequence).toBe(true);
		expect(await exportInfoOf(file.fileId)).toEqual({ status: 'completed', messages: ['Checked twice'] });
		expect(await exportInfoOf(other.fileId)).toEqual({ status: 'error', messages: ['Not an invoice'] });
		expect(output.map((item) => item.json.exportStatus)).toEqual([
			expect.objectContaining({ reported: true, status: 'completed', messages: ['Checked twice'] }),
			expect.objectContaining({ reported: true, status: 'error', messages: ['Not an invoice'] }),
			expect.objectContaining({ reported: true, status: 'completed' }),
		]);
		expect(await storedValues(file.fileId)).toMatchObject({ 'Total Amount': 999.5 });
	});

	it('a failed export report keeps the review: the values written, the decision out, the item naming the file and what to do', async () => {
		const { executionId, url } = await startReview([file], { options: { reportExportStatus: true } });
		emulator.faults.failNext({ method: 'PATCH', path: /^\/prod\/v1\/files\/[^/]+$/, status: 400, detail: 'Export status locked' });
		const sent = await submit(url, {
			files: [{ fileId: file.fileId, decision: 'approve', note: 'ok', changes: [{ field: 'Vendor Name', kind: 'string', value: 'Initech' }] }],
		});
		expect(sent.status).toBe(200);
		const [item] = (await waiting.whenEnded(executionId)).outputOf(NODE);

		expect(item.json).toMatchObject({ fileId: file.fileId, decision: 'approved', changes: [{ field: 'Vendor Name', after: 'Initech' }] });
		expect(item.json.exportStatus).toMatchObject({ reported: false, status: 'completed' });
		const error = String((item.json.exportStatus as { error?: string }).error);
		expect(error).toContain(file.fileId);
		expect(error).toContain('1 changed value(s) were written');
		expect(error).toContain('File > Report Export Status');
		expect(exportReports()).toHaveLength(1);
		expect(await storedValues(file.fileId)).toMatchObject({ 'Vendor Name': 'Initech' });
		expect((await exportInfoOf(file.fileId)).status).toBeNull();
	});

	it("refuses to run as an AI agent's tool (n8n's generated type ends in Tool): a review waits for a person", async () => {
		const asTool = { getNode: () => ({ name: 'Review', type: 'n8n-nodes-document-extraction.documentExtractionTool' }) } as unknown as IExecuteFunctions;
		await expect(reviewResumeUrl(asTool)).rejects.toThrow('A review cannot be used by an AI agent');
	});
});
