/**
 * The agent example's scripted model (npm start, test/e2e/ai.test.ts): list the files, read the one
 * the question names, answer from its values; an empty workspace and a failed tool answered in words.
 */
import { EXAMPLE_TOOLS, invoiceQuestionsScript } from '../../dev/model/invoice-questions-script';
import type { ChatMessage, RecordedRequest } from '../../dev/model/scripted-model';

const QUESTION = 'What is the total of invoice INV-2024-0042, and is it paid?';
const FILES = [
	{ fileId: 'receipt-id', fileName: 'receipt-R-7781.txt' },
	{ fileId: 'other-invoice-id', fileName: 'invoice-INV-2024-0001.pdf' },
	{ fileId: 'invoice-id', fileName: 'invoice-INV-2024-0042.pdf' },
];

/** A request as n8n sends it after the given tool calls and their results. */
function request(question: string, calls: Array<{ name: string; arguments: Record<string, unknown>; result: string }>): RecordedRequest {
	const messages: ChatMessage[] = [{ role: 'user', content: question }];
	calls.forEach((call, index) => {
		messages.push({ role: 'assistant', tool_calls: [{ id: `call_${index}`, function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] });
		messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: call.result });
	});
	return {
		path: '/v1/chat/completions',
		body: { model: 'scripted-model', messages },
		toolNames: Object.values(EXAMPLE_TOOLS),
		toolResults: calls.map((call, index) => ({ toolCallId: `call_${index}`, content: call.result })),
	};
}

const listed = { name: EXAMPLE_TOOLS.listFiles, arguments: { limit: 10, createdAfter: '' }, result: JSON.stringify(FILES) };

it('first lists the files', () => {
	expect(invoiceQuestionsScript(request(QUESTION, []))).toEqual({ toolCalls: [{ name: EXAMPLE_TOOLS.listFiles, arguments: { limit: 10, createdAfter: '' } }] });
});

it('then reads the file whose name holds the number the question names', () => {
	expect(invoiceQuestionsScript(request(QUESTION, [listed]))).toEqual({ toolCalls: [{ name: EXAMPLE_TOOLS.getValues, arguments: { fileId: 'invoice-id' } }] });
	// No number in the question: the first invoice.
	expect(invoiceQuestionsScript(request('What does my last invoice say?', [listed]))).toEqual({
		toolCalls: [{ name: EXAMPLE_TOOLS.getValues, arguments: { fileId: 'other-invoice-id' } }],
	});
});

it('then answers from the values', () => {
	const values = { name: EXAMPLE_TOOLS.getValues, arguments: { fileId: 'invoice-id' }, result: JSON.stringify([{ 'Invoice Number': 'INV-2024-0042', 'Total Amount': 1234.5, Currency: 'USD', Paid: false }]) };
	expect(invoiceQuestionsScript(request(QUESTION, [listed, values]))).toEqual({ text: 'INV-2024-0042 (invoice-INV-2024-0042.pdf) totals 1234.5 USD. It is not paid yet.' });
});

it('says the workspace is empty when the list is (n8n hands the model an empty string)', () => {
	const empty = { ...listed, result: '""' };
	expect(invoiceQuestionsScript(request(QUESTION, [empty]))).toEqual({ text: expect.stringMatching(/^The workspace has no documents yet/) });
});

it('passes a failed call on in words', () => {
	const failed = { name: EXAMPLE_TOOLS.getValues, arguments: { fileId: 'invoice-id' }, result: 'Error: not found' };
	expect(invoiceQuestionsScript(request(QUESTION, [listed, failed]))).toEqual({ text: 'Reading the values failed: Error: not found' });
	const continued = { ...failed, result: JSON.stringify([{ error: 'Not Found: File invoice-id was not found (HTTP 404 NOT_FOUND).' }]) };
	expect(invoiceQuestionsScript(request(QUESTION, [listed, continued]))).toEqual({ text: 'Reading the values failed: Not Found: File invoice-id was not found (HTTP 404 NOT_FOUND).' });
});
