/**
 * Document Extraction as a tool of n8n's AI Agent and of its MCP Server Trigger, in the real n8n
 * (one `n8n start` for every case), against the emulator, with a scripted chat model
 * (dev/model/scripted-model.ts) in place of a real one:
 * - examples/agent-invoice-questions.json as a user imports it: the AI Agent (v3) with the
 *   OpenAI Chat Model (v1.3, its credential's Base URL at the scripted model) and three of our
 *   tools whose parameters the model fills ($fromAI); the tests read what the model RECEIVED;
 * - the MCP Server Trigger (v2), published, reached by the official MCP SDK's streamable HTTP client.
 */
import * as fs from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { SEEDED_KEYS } from '../../dev/emulator';
import { INVOICE_EXPECTED, INVOICE_FILE_NAME, RECEIPT_EXPECTED, RECEIPT_FILE_NAME, invoiceText, receiptText } from '../../dev/documents';
import { EXAMPLE_TOOLS as TOOL, invoiceQuestionsScript, toolResults } from '../../dev/model/invoice-questions-script';
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../../dev/model/scripted-model';
import { AGENT_EXAMPLE, chatModelCredential } from '../../dev/model/chat-model';
import { executionOutput, findNode, readExample, runWorkflow, startStack, waitForExecution, type ExecutionRecord, type Stack, type WorkflowJson } from '../../dev/n8n/n8n-stack';
import { e2eRuntime, uploadToEmulator, waitFor } from './helpers';

/** The example as a user imports it: Ask the example question -> Question -> AI Agent, with its model and three tools. */
const AGENT = readExample(AGENT_EXAMPLE);
const AGENT_NODE = 'AI Agent';
const MCP_PATH = 'dex-e2e-tools';

/**
 * MCP Server Trigger (v2) exposing the example's List files and Get file values tools, without
 * their Description: the operation's own (the parameter's default) is what the client gets.
 */
function mcpWorkflow(): WorkflowJson {
	const tools = [findNode(AGENT, 'List files'), findNode(AGENT, 'Get file values')].map((node, index) => {
		const { toolDescription: _, ...parameters } = node.parameters;
		return { ...node, parameters, id: `4b0e9f3a-2d1c-4e8b-a7f6-5c3d0000e2${index}0`, position: [240 * index, 240] };
	});
	return {
		id: 'dexE2eMcpTools01',
		name: 'e2e: Document Extraction tools over MCP',
		nodes: [
			{
				id: '4b0e9f3a-2d1c-4e8b-a7f6-5c3d0000e2ff',
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '5d2c7e0b-9a41-4f5e-8b1d-3c6a0000e2e1',
				parameters: { path: MCP_PATH },
			},
			...tools,
		],
		connections: Object.fromEntries(tools.map((tool) => [tool.name, { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] }])),
		settings: { executionOrder: 'v1' },
	};
}
const MCP = mcpWorkflow();

/** The example, published, with its Chat Trigger public and streaming the agent's reply (as n8n's hosted chat page uses it). */
const CHAT_WEBHOOK_ID = '9a7e1c3b-5d2f-4b8a-9c6e-0f1d0000c4a7';
function chatWorkflow(): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(AGENT)) as WorkflowJson;
	const trigger = findNode(copy, 'When chat message received');
	trigger.webhookId = CHAT_WEBHOOK_ID;
	trigger.parameters = { public: true, mode: 'hostedChat', options: { responseMode: 'streaming' } };
	return { ...copy, id: 'dexE2eAgentChat1', name: 'e2e: the agent example behind a public chat' };
}
const CHAT = chatWorkflow();

/** The Description parameter of one of the example's tool nodes: what the model is told the tool does. */
function descriptionOf(nodeName: string): string {
	return String(findNode(AGENT, nodeName).parameters.toolDescription);
}

/** A tool result as the model got it: n8n sends JSON.stringify of the tool node's output items. */
function parsed(content: string): unknown {
	try {
		return JSON.parse(content);
	} catch {
		return content;
	}
}

const toolCall = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });

describe('Document Extraction as an AI tool in the real n8n', () => {
	let stack: Stack;
	let model: ScriptedModel;
	const files: Record<string, string> = {};
	/** Bytes of each tool result the model received, printed at the end (docs/ai-tools.md). */
	const sizes: Array<[string, number]> = [];

	async function runAgent(): Promise<ExecutionRecord> {
		return await waitForExecution(stack.n8n, await runWorkflow(stack.n8n, AGENT.id!, 'Ask the example question'), 180_000);
	}

	beforeAll(async () => {
		model = await startScriptedModel();
		stack = await startStack({
			build: false,
			runtime: await e2eRuntime(),
			workflows: [AGENT, MCP, CHAT],
			publish: [MCP.id!, CHAT.id!],
			emulator: { processingDelayMs: 0 },
			credentials: () => [chatModelCredential(model.baseUrl)],
		});
		// The workspace the agent looks into: the example invoice and receipt, processed.
		for (const [name, text] of [
			[INVOICE_FILE_NAME, invoiceText()],
			[RECEIPT_FILE_NAME, receiptText()],
		]) {
			const uploadId = await uploadToEmulator(stack.emulator, SEEDED_KEYS.readWrite, name, Buffer.from(text));
			files[name] = await waitFor(
				`${name} processed`,
				() => [...stack.emulator.state.files.values()].find((file) => file.uploadId === uploadId && file.status === 'processed')?.fileId,
				30_000,
				100,
			);
		}
	});

	afterAll(async () => {
		await stack?.stop();
		await model?.close();
		if (stack && !process.env.E2E_KEEP) fs.rmSync(stack.userFolder, { recursive: true, force: true });
		if (sizes.length) console.log(`Tool results the model received (bytes):\n${sizes.map(([what, bytes]) => `  ${what}: ${bytes}`).join('\n')}`);
	});

	test('the example: the agent lists files, takes the invoice\'s id from the result, gets its values; the model receives the real values', async () => {
		model.setScript(invoiceQuestionsScript);
		const execution = await runAgent();
		expect(execution.data?.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(model.requests).toHaveLength(3);

		// The model was offered our three tools, each with the Description of its node and its $fromAI arguments.
		const offered = Object.fromEntries((model.requests[0].body.tools ?? []).map((tool) => [tool.function.name, tool.function]));
		expect(Object.keys(offered).sort()).toEqual(Object.values(TOOL).sort());
		expect(offered[TOOL.listFiles].description).toBe(descriptionOf('List files'));
		expect(offered[TOOL.listFiles].description).toMatch(/^Lists the documents \(files\) of the workspace/);
		expect(offered[TOOL.listFiles].parameters).toMatchObject({ type: 'object', properties: { limit: { type: 'number' }, createdAfter: { type: 'string' } } });
		expect(offered[TOOL.getValues].description).toBe(descriptionOf('Get file values'));
		expect(offered[TOOL.query].description).toBe(descriptionOf('Query extracted values'));
		expect(offered[TOOL.getValues].parameters).toMatchObject({ type: 'object', properties: { fileId: { type: 'string' } }, required: ['fileId'] });
		expect(offered[TOOL.query].parameters).toMatchObject({ type: 'object', properties: { queryConfig: { description: expect.stringMatching(/^The query as a JSON object/) }, limit: { type: 'number' } } });

		// The second request carries the file list: both documents with their ids.
		const [list] = toolResults(model.requests[1]);
		expect(list.name).toBe(TOOL.listFiles);
		const listed = parsed(list.content) as Array<Record<string, unknown>>;
		expect(listed.map((file) => file.fileName).sort()).toEqual([INVOICE_FILE_NAME, RECEIPT_FILE_NAME].sort());
		expect(listed.find((file) => file.fileName === INVOICE_FILE_NAME)).toMatchObject({ fileId: files[INVOICE_FILE_NAME], status: 'processed' });
		// Simplified, as a tool's Get Many is by default: no storage path, hash or upload id for the model to read.
		for (const file of listed) expect(Object.keys(file)).toEqual(['fileName', 'status', 'fileId', 'fileClass', 'referenceId', 'summary', 'isDuplicate', 'createdAt', 'updatedAt']);
		sizes.push(['File > Get Many (2 files, limit 10)', Buffer.byteLength(list.content)]);

		// The third: the invoice's values (Simplify on), exactly the document's, for the id taken from the list.
		const results = toolResults(model.requests[2]);
		expect(results.map((result) => result.name)).toEqual([TOOL.listFiles, TOOL.getValues]);
		expect(results[1].arguments).toMatchObject({ fileId: files[INVOICE_FILE_NAME] });
		expect(parsed(results[1].content)).toEqual([INVOICE_EXPECTED]);
		sizes.push(['File > Get Values (the invoice, Simplify on)', Buffer.byteLength(results[1].content)]);

		// The agent's answer is the model's last text, made from those values.
		expect(executionOutput(execution, AGENT_NODE)[0]).toMatchObject({ output: 'INV-2024-0042 (invoice-INV-2024-0042.txt) totals 1234.5 USD. It is not paid yet.' });
	});

	test('a Query Execute tool call with model-filled parameters: the query reaches the emulator, the rows reach the model', async () => {
		const queryConfig = {
			selectedFields: [
				{ field: 'fileName', alias: 'file' },
				{ field: 'Invoice Number', alias: 'invoiceNumber' },
				{ field: 'Total Amount', alias: 'total' },
			],
			filters: [{ field: 'Invoice Number', operator: 'eq', value: 'INV-2024-0042' }],
		};
		model.setScript([toolCall(TOOL.query, { queryConfig, limit: 5 }), { text: 'INV-2024-0042 totals 1,234.50.' }]);
		const before = stack.emulator.requests.length ? stack.emulator.requests[stack.emulator.requests.length - 1].sequence : 0;
		const execution = await runAgent();
		expect(execution.status).toBe('success');

		const queries = stack.emulator.requests.filter((entry) => entry.sequence > before && entry.method === 'POST' && entry.path.endsWith('/query/execute'));
		expect(queries.map((entry) => entry.status)).toEqual([200]);

		expect(model.requests).toHaveLength(2);
		const [result] = toolResults(model.requests[1]);
		expect(result.name).toBe(TOOL.query);
		// Only the invoice passed the model's filter (the receipt has no invoice number), with the model's columns.
		expect(parsed(result.content)).toEqual([{ file: INVOICE_FILE_NAME, invoiceNumber: 'INV-2024-0042', total: INVOICE_EXPECTED['Total Amount'] }]);
		sizes.push(['Query > Execute (3 columns, 1 row)', Buffer.byteLength(result.content)]);
	});

	test('a file id that does not exist: the model gets an error text it can act on, and the execution succeeds', async () => {
		const unknown = '00000000-0000-4000-8000-000000000000';
		model.setScript([toolCall(TOOL.getValues, { fileId: unknown }), { text: 'That file does not exist.' }]);
		const execution = await runAgent();
		expect(execution.status).toBe('success');
		expect(execution.data?.resultData.error).toBeUndefined();

		expect(model.requests).toHaveLength(2);
		const [result] = toolResults(model.requests[1]);
		expect(result.name).toBe(TOOL.getValues);
		console.log(`Unknown file id: the model received ${JSON.stringify(result.content)}`);
		// It names the file id and says it was not found.
		expect(result.content).toContain(unknown);
		expect(result.content).toMatch(/not found|no file|does not exist/i);
		sizes.push(['File > Get Values (unknown file id: the error)', Buffer.byteLength(result.content)]);
		expect(executionOutput(execution, AGENT_NODE)[0]).toMatchObject({ output: 'That file does not exist.' });
	});

	test('the MCP Server Trigger: the official MCP client lists the tools, calls Get Values and receives the values', async () => {
		const url = new URL(`${stack.n8n.url}/mcp/${MCP_PATH}`);
		// Published before the start; the endpoint answers 404 until its activation has finished.
		await waitFor('the MCP endpoint', async () => ((await fetch(url, { method: 'GET' })).status === 404 ? undefined : true), 60_000, 250);
		const client = new Client({ name: 'dex-e2e', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(url));
		try {
			const { tools } = await client.listTools();
			expect(tools.map((tool) => tool.name).sort()).toEqual([TOOL.getValues, TOOL.listFiles].sort());
			const getValues = tools.find((tool) => tool.name === TOOL.getValues)!;
			// The Get Values operation's own Description (the node's default), not n8n's "Get extracted values of a file in Document Extraction".
			expect(getValues.description).toMatch(/^Gets the values extracted from one document, as field title: value .*Needs the file ID \(a UUID; Get Many files finds it/);
			expect(tools.find((tool) => tool.name === TOOL.listFiles)!.description).toMatch(/^Lists the documents \(files\) of the workspace with their file ID/);
			expect(getValues.inputSchema).toMatchObject({ type: 'object', properties: { fileId: { type: 'string' } } });

			const listed = await client.callTool({ name: TOOL.listFiles, arguments: { limit: 10, createdAfter: '' } });
			const listText = (listed.content as Array<{ type: string; text: string }>)[0].text;
			const receipt = (parsed(listText) as Array<{ fileId: string; fileName: string }>).find((file) => file.fileName === RECEIPT_FILE_NAME);
			expect(receipt?.fileId).toBe(files[RECEIPT_FILE_NAME]);

			const answer = await client.callTool({ name: TOOL.getValues, arguments: { fileId: receipt!.fileId } });
			expect(answer.isError).toBeFalsy();
			const text = (answer.content as Array<{ type: string; text: string }>)[0].text;
			expect(parsed(text)).toEqual([RECEIPT_EXPECTED]);
			sizes.push(['File > Get Values (the receipt, over MCP)', Buffer.byteLength(text)]);
		} finally {
			await client.close();
		}
	});

	test('the example behind its Chat Trigger (public, streaming): the model is asked to stream, the reply streams back from the invoice\'s values', async () => {
		model.setScript(invoiceQuestionsScript);
		const url = `${stack.n8n.url}/webhook/${CHAT_WEBHOOK_ID}/chat`;
		const ask = async () => await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'sendMessage', sessionId: 'e2e-chat', chatInput: 'What is the total of invoice INV-2024-0042?' }) });
		// Published before the start; the webhook answers 404 until its activation has finished.
		let answer = await ask();
		for (let tries = 0; answer.status === 404 && tries < 120; tries++) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			answer = await ask();
		}
		expect(answer.status).toBe(200);
		const body = await answer.text();
		// n8n streams one JSON object per line: begin, item (content), end.
		const chunks = body.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as { type: string; content?: string });
		const reply = chunks.filter((chunk) => chunk.type === 'item').map((chunk) => chunk.content ?? '').join('');
		expect(reply).toBe('INV-2024-0042 (invoice-INV-2024-0042.txt) totals 1234.5 USD. It is not paid yet.');
		expect(model.requests).toHaveLength(3);
		expect(model.requests.every((request) => request.body.stream === true)).toBe(true);
		expect(toolResults(model.requests[2]).map((result) => result.name)).toEqual([TOOL.listFiles, TOOL.getValues]);
	});

	test('no n8n process tried to reach anything but 127.0.0.1', () => {
		expect(stack.n8n.outboundAttempts()).toEqual([]);
	});
});
