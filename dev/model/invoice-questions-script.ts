/**
 * The scripted model's part in examples/agent-invoice-questions.json: what a model would do with a
 * question about one document. It lists the files, picks the one the question names (an id such
 * as INV-2024-0042 in its file name, else the first invoice, else the newest file), reads its
 * values and answers from them. `npm start` serves it so that the example runs offline; the
 * end-to-end suite (test/e2e/ai.test.ts) runs the example with it.
 */
import type { RecordedRequest, ScriptedReply } from './scripted-model';

/** n8n names a tool after its node, with underscores for what a tool name cannot hold. */
export const EXAMPLE_TOOLS = {
	listFiles: 'List_files',
	getValues: 'Get_file_values',
	query: 'Query_extracted_values',
} as const;

interface ListedFile {
	fileId: string;
	fileName?: string;
}

function parse(content: string): unknown {
	try {
		return JSON.parse(content);
	} catch {
		return content;
	}
}

/** Every tool result the model has received so far, with the name of the tool that produced it. */
export function toolResults(request: RecordedRequest): Array<{ name: string; arguments: Record<string, unknown>; content: string }> {
	const calls = new Map<string, { name: string; arguments: string }>();
	for (const message of request.body.messages) for (const call of message.tool_calls ?? []) calls.set(call.id, call.function);
	return request.toolResults.map((result) => {
		const call = calls.get(result.toolCallId);
		return { name: call?.name ?? '?', arguments: call ? (parse(call.arguments) as Record<string, unknown>) : {}, content: result.content };
	});
}

function question(request: RecordedRequest): string {
	const asked = request.body.messages.filter((message) => message.role === 'user').pop();
	return typeof asked?.content === 'string' ? asked.content : JSON.stringify(asked?.content ?? '');
}

function pickFile(files: ListedFile[], asked: string): ListedFile | undefined {
	const named = asked.match(/\b[A-Z]{1,5}-\d[\d-]*\b/g) ?? [];
	return (
		files.find((file) => named.some((name) => file.fileName?.includes(name))) ??
		files.find((file) => /invoice/i.test(file.fileName ?? '')) ??
		files[0]
	);
}

function describeValues(fileName: string, values: Record<string, unknown>): string {
	const number = values['Invoice Number'] ?? values['Receipt Number'];
	const total = values['Total Amount'] ?? values.Total;
	const currency = values.Currency ? ` ${String(values.Currency)}` : '';
	const paid = values.Paid === true ? 'It is paid.' : values.Paid === false ? 'It is not paid yet.' : '';
	if (number !== undefined && total !== undefined) {
		return `${String(number)} (${fileName}) totals ${String(total)}${currency}. ${paid}`.trim();
	}
	return `The values of ${fileName}: ${JSON.stringify(values)}`;
}

/** The script: a function of the request, so it serves any number of questions. */
export function invoiceQuestionsScript(request: RecordedRequest): ScriptedReply {
	const results = toolResults(request);
	const listed = results.filter((result) => result.name === EXAMPLE_TOOLS.listFiles).pop();
	if (!listed) return { toolCalls: [{ name: EXAMPLE_TOOLS.listFiles, arguments: { limit: 10, createdAfter: '' } }] };
	// No files: n8n hands the model an empty string ("" as JSON) for a tool that output no items.
	const parsedList = parse(listed.content);
	const files = parsedList === '' || parsedList === null ? [] : parsedList;
	if (!Array.isArray(files)) return { text: `Listing the files failed: ${listed.content}` };
	const read = results.filter((result) => result.name === EXAMPLE_TOOLS.getValues).pop();
	if (!read) {
		const file = pickFile(files as ListedFile[], question(request));
		if (!file) return { text: 'The workspace has no documents yet. Run the example "Document Extraction: extract every document of a folder" first, then ask again.' };
		return { toolCalls: [{ name: EXAMPLE_TOOLS.getValues, arguments: { fileId: file.fileId } }] };
	}
	// Simplified values: one { field title: value } object per form of the file.
	const forms = parse(read.content);
	const values = Array.isArray(forms) ? (forms[0] as Record<string, unknown> | undefined) : undefined;
	// A failed call: the text, or (On Error: Continue) an item with `error`.
	if (!values || typeof values !== 'object' || 'error' in values) return { text: `Reading the values failed: ${String(values?.error ?? read.content)}` };
	const fileName = (files as ListedFile[]).find((file) => file.fileId === read.arguments.fileId)?.fileName ?? String(read.arguments.fileId);
	return { text: describeValues(fileName, values) };
}
