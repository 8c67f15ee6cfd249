/**
 * Redaction reaches every depth and survives every shape (issue 34, finding 9): it stopped at
 * depth 20 although the check that triggered it saw any depth, so a key echoed 26 levels deep
 * stayed in an output item and in an error's context; and the check went through JSON.stringify,
 * which throws on a cycle or a 20,000-deep record (finding 2's RangeError in the trigger) and is
 * exponential over shared references. nodes/shared/transport/secrets.ts now finds and replaces
 * in one iterative walk.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { redactDeep, scrubError, withoutSecrets } from '../../nodes/shared/transport/secrets';
import { runNode } from '../../dev/harness';
import { allTexts } from './all-texts';
import { SEEDED_KEYS, credentialsFor, useEmulator } from './support';

const KEY = 'dex_live_9f8e7d6c5b4a39281706';

/** `leaf` wrapped in `depth` objects (or arrays), each one level deeper: { a: { a: ... leaf } }. */
function nested(depth: number, leaf: unknown, as: 'object' | 'array' = 'object'): unknown {
	let value = leaf;
	for (let level = 0; level < depth; level++) value = as === 'object' ? { level, a: value } : [level, value];
	return value;
}

function expectNoKeyIn(value: unknown): void {
	const texts = allTexts(value);
	expect(texts.filter((text) => text.includes(KEY) || text.includes(encodeURIComponent(KEY)))).toEqual([]);
}

const item = (json: unknown): INodeExecutionData => ({ json: json as IDataObject });

describe('the key is removed at any depth', () => {
	it.each([21, 26, 100, 1000])('an output item with the key %i levels deep (objects and arrays), in a value and in a key', (depth) => {
		const json = { objects: nested(depth, `echo ${KEY}`), arrays: nested(depth, [`x${KEY}y`], 'array'), keys: nested(depth, { [`k-${KEY}`]: 1 }) };

		const [result] = withoutSecrets([item(json)], [KEY]);

		expectNoKeyIn(result.json);
		expect(allTexts(result.json)).toContain('echo [redacted]');
		expect(allTexts(result.json)).toContain('x[redacted]y');
		expect(allTexts(result.json)).toContain('k-[redacted]');
	});

	it("an error's context, errorResponse and cause with the key 26 levels deep", () => {
		const error = new NodeApiError({ name: 'x', parameters: {} } as unknown as INode, { message: 'failed' } as JsonObject, { message: 'failed' });
		error.context.answer = nested(26, KEY) as IDataObject;
		error.context[`key ${KEY}`] = 'in a key of the context';
		(error as unknown as { errorResponse: unknown }).errorResponse = nested(26, { detail: KEY });
		Object.defineProperty(error, 'cause', { value: nested(26, [KEY]), configurable: true, writable: true });

		scrubError(error, [KEY]);

		expectNoKeyIn([error.context, (error as unknown as { errorResponse: unknown }).errorResponse, (error as { cause?: unknown }).cause]);
		expect(allTexts(error.context)).toContain('key [redacted]');
	});

	it('URL-encoded and JSON-escaped forms, as substrings, deep', () => {
		const key = 'k"ey/with space';
		const json = nested(30, { a: `u=${encodeURIComponent(key)}`, b: `j=${JSON.stringify(key).slice(1, -1)}`, c: `raw=${key}` });

		const texts = allTexts(redactDeep(json, [key]));

		expect(texts).toEqual(expect.arrayContaining(['u=[redacted]', 'j=[redacted]', 'raw=[redacted]']));
	});
});

describe('counterexamples found by the property tests (test/fuzz/redaction-properties.test.ts)', () => {
	it("a secret that is part of the marker or of the cause's own keys ('a'): nothing holds it afterwards", () => {
		const error = new NodeApiError({ name: 'x', parameters: {} } as unknown as INode, { message: 'failed' } as JsonObject, { message: 'failed' });
		Object.defineProperty(error, 'cause', { value: new Error('inner a'), configurable: true, writable: true });

		scrubError(error, ['a']);

		expect(allTexts((error as { cause?: unknown }).cause).filter((text) => text.includes('a'))).toEqual([]);
		expect(allTexts(redactDeep({ text: 'banana', red: 'redacted' }, ['red', 'a']))).toEqual(['text', '', '', '']);
	});
});

describe('counterexamples found by the long property run (npm run fuzz)', () => {
	it('a NaN in a value holding no key does not make a copy (NaN !== NaN)', () => {
		const input = item({ deep: nested(400, { ratio: Number.NaN }) });
		expect(withoutSecrets([input], [KEY])[0]).toBe(input);
	});
});

describe('any shape: nothing throws, and the work is linear in the size', () => {
	it('a record 20,000 levels deep (as in finding 2) is redacted without a RangeError', () => {
		const json = nested(20_000, `bottom ${KEY}`);

		const [result] = withoutSecrets([item(json)], [KEY]);

		expectNoKeyIn(result.json);
		expect(allTexts(result.json)).toContain('bottom [redacted]');
	});

	it('a record 20,000 deep without the key comes back as it was (the same object)', () => {
		const input = item(nested(20_000, 'nothing secret'));
		expect(withoutSecrets([input], [KEY])[0]).toBe(input);
	});

	it('a cyclic structure does not throw, and the copy keeps its cycle without the key', () => {
		const json: IDataObject = { note: `cyclic ${KEY}`, list: [] };
		json.self = json;
		(json.list as unknown[]).push(json, { back: json, text: KEY });

		const [result] = withoutSecrets([item(json)], [KEY]);

		expectNoKeyIn(result.json);
		expect(result.json.self).toBe(result.json);
		expect((result.json.list as unknown[])[0]).toBe(result.json);
	});

	it('shared references (2^40 paths to one leaf) are walked once each, not once per path', () => {
		let level: unknown = { leaf: `shared ${KEY}` };
		for (let depth = 0; depth < 40; depth++) level = { left: level, right: level };

		const result = redactDeep(level, [KEY]) as { left: unknown; right: unknown };

		expectNoKeyIn(result);
		// Compared as a boolean: a failing toBe would print two trees of 2^40 paths.
		expect(result.left === result.right).toBe(true);
	});

	it('an item without the key is returned as it was, not copied', () => {
		const input = item({ a: nested(50, 'clean'), b: [1, 2, 3] });
		expect(withoutSecrets([input], [KEY])[0]).toBe(input);
	});
});

describe('through the engine: the service echoes the key deep in an answer', () => {
	const emulator = useEmulator();
	const apiKey = SEEDED_KEYS.readWrite;

	it('Get Subscription: the key 26 levels deep in the answer is not in the output item', async () => {
		emulator.faults.editAnswerNext({ method: 'GET', path: '/subscription', edit: (body) => ({ ...(body as IDataObject), subscription: { ...((body as IDataObject).subscription as IDataObject), echo: nested(26, `your key is ${apiKey}`) } }) });

		const result = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: credentialsFor(emulator, apiKey),
		});

		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.items)).toContain('your key is [redacted]');
		expect(JSON.stringify([result.items, result.result.run.data])).not.toContain(apiKey);
	});
});
