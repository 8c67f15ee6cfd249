/** The scripted chat model answers as the OpenAI chat completions API does, and records what it gets. */
import type { ScriptedModel } from '../../dev/model/scripted-model';
import { startScriptedModel } from '../../dev/model/scripted-model';

let model: ScriptedModel;

beforeAll(async () => {
	model = await startScriptedModel();
});

afterAll(async () => {
	await model.close();
});

async function chat(body: Record<string, unknown>): Promise<Response> {
	return await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'scripted-model', ...body }),
	});
}

const tools = [{ type: 'function', function: { name: 'get_values', description: 'Get values', parameters: { type: 'object', properties: {} } } }];

it('lists one model', async () => {
	const response = await fetch(`${model.baseUrl}/models`);
	expect(await response.json()).toMatchObject({ data: [{ id: 'scripted-model' }] });
});

it('answers a tool call, then text, and records the tools offered and the tool results sent back', async () => {
	model.setScript([{ toolCalls: [{ name: 'get_values', arguments: { fileId: 'abc' } }] }, { text: 'The total is 1234.50.' }]);

	const first = (await (await chat({ messages: [{ role: 'user', content: 'Total?' }], tools })).json()) as {
		choices: Array<{ message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }>;
	};
	const call = first.choices[0].message.tool_calls[0];
	expect(first.choices[0].finish_reason).toBe('tool_calls');
	expect(call.function).toEqual({ name: 'get_values', arguments: '{"fileId":"abc"}' });

	const second = (await (
		await chat({
			messages: [
				{ role: 'user', content: 'Total?' },
				{ role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
				{ role: 'tool', tool_call_id: call.id, content: '{"Total Amount":1234.5}' },
			],
			tools,
		})
	).json()) as { choices: Array<{ message: { content: string } }> };
	expect(second.choices[0].message.content).toBe('The total is 1234.50.');

	expect(model.requests.map((request) => request.toolNames)).toEqual([['get_values'], ['get_values']]);
	expect(model.requests[1].toolResults).toEqual([{ toolCallId: call.id, content: '{"Total Amount":1234.5}' }]);
});

it('streams server-sent events when asked to', async () => {
	model.setScript([{ toolCalls: [{ name: 'get_values', arguments: { fileId: 'x' } }] }]);

	const response = await chat({ messages: [{ role: 'user', content: 'Go' }], tools, stream: true, stream_options: { include_usage: true } });
	const text = await response.text();

	expect(response.headers.get('content-type')).toBe('text/event-stream');
	const events = text.split('\n\n').filter(Boolean).map((line) => line.replace(/^data: /, ''));
	expect(events.at(-1)).toBe('[DONE]');
	const chunks = events.slice(0, -1).map((event) => JSON.parse(event) as { choices: Array<{ delta?: { tool_calls?: Array<{ function: { name: string } }> }; finish_reason?: string }>; usage?: unknown });
	expect(chunks.some((chunk) => chunk.choices[0]?.delta?.tool_calls?.[0].function.name === 'get_values')).toBe(true);
	expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
	expect(chunks.at(-1)?.usage).toBeDefined();
});
