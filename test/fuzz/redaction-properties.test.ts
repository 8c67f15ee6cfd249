/**
 * Property-based tests of redaction (nodes/shared/transport/secrets.ts): generated JSON-like
 * values (deep, wide, with shared references and cycles) with the secret embedded anywhere, in
 * values and keys, whole or as a substring, raw, URL-encoded or JSON-escaped.
 *
 * Invariants:
 * - R1 (nothing left): no string and no key of the output holds any form of any secret, whatever
 *   the secret (even one that overlaps the "[redacted]" marker); for a key-like secret, the output
 *   as n8n serialises it (JSON) does not hold it either.
 * - R2 (never throws, linear work): any shape (20,000 levels, cycles, shared references) is
 *   walked without an exception, each container's keys listed once and each property read once.
 * - R3 (no needless copy): a value holding no secret comes back as the same object, and redacting
 *   the output again changes nothing (the same object again); for values without cycles (n8n's
 *   items cannot have any: it stores them as JSON), as a container on a cycle is always copied.
 * - R4 (errors too): an error's message, description, context (keys too), errorResponse and cause
 *   hold no secret after scrubError.
 *
 * Runs: 300 per property from a fixed seed in `npm test`; `npm run fuzz` runs FUZZ_RUNS (5,000)
 * and FUZZ_SEED picks another seed (test/fuzz/runs.ts). Counterexamples found are named tests in
 * test/node/deep-redaction.test.ts.
 */
import * as fc from 'fast-check';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

import { redact, redactDeep, scrubError, withoutSecrets } from '../../nodes/shared/transport/secrets';

import { allTexts } from '../node/all-texts';
import { fuzzParameters, fuzzTimeout } from './runs';

/** Runs of each property in `npm test` (fixed seed); `npm run fuzz` scales them (test/fuzz/runs.ts). */
const RUNS = 300;
jest.setTimeout(fuzzTimeout(RUNS, 25));

/** The forms a secret is looked for in (the oracle's own list: as is, URL-encoded, JSON-escaped). */
function formsOf(secret: string): string[] {
	const forms = [secret, JSON.stringify(secret).slice(1, -1)];
	try {
		forms.push(encodeURIComponent(secret));
	} catch {
		// a lone surrogate has no URL-encoded form
	}
	return forms;
}

function leftovers(value: unknown, secrets: string[]): string[] {
	const forms = secrets.flatMap(formsOf).filter((form) => form !== '');
	return allTexts(value).filter((text) => forms.some((form) => text.includes(form)));
}

function containers(value: unknown): object[] {
	const found: object[] = [];
	const seen = new Set<object>();
	const stack: unknown[] = [value];
	while (stack.length) {
		const current = stack.pop();
		if (current && typeof current === 'object' && !seen.has(current)) {
			seen.add(current);
			found.push(current);
			for (const entry of Object.values(current)) stack.push(entry);
		}
	}
	return found;
}

// ---------------------------------------------------------------------------------------------
// Generators.

/** Secrets: key-like ones, and any text, including ones made of JSON, URL and marker characters. */
const secretArb = fc.oneof(
	{ weight: 4, arbitrary: fc.stringMatching(/^[\w-]{8,40}$/) },
	{ weight: 2, arbitrary: fc.string({ minLength: 4, maxLength: 16, unit: 'binary' }) },
	{ weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 10, unit: fc.constantFrom('a', 'd', 'e', 'r', 'c', 't', '[', ']', '"', '\\', '/', '%', ' ', '\u2028', 'é', '\u{1f600}', '\u0000', '\n') }) },
);

/** A text built of noise and the secret's forms, so the secret appears whole, encoded, or as a substring. */
const textWith = (secret: string) =>
	fc
		.array(fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.constantFrom(...formsOf(secret)) }), { maxLength: 4 })
		.map((pieces) => pieces.join(''));

/** A JSON-like tree (objects and arrays, keys and values built with textWith), then deepened, shared and made cyclic. */
const valueWith = (secret: string) => {
	const text = textWith(secret);
	const tree = fc.letrec<{ node: unknown }>((tie) => ({
		node: fc.oneof(
			{ depthSize: 'small', withCrossShrink: true },
			text,
			fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
			fc.array(tie('node'), { maxLength: 4 }),
			fc.array(fc.tuple(text, tie('node')), { maxLength: 4 }).map((entries) => {
				const object: Record<string, unknown> = {};
				for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
				return object;
			}),
		),
	})).node;
	return fc
		.record({
			root: tree,
			depth: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }) }),
			spineKey: text,
			links: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 4 }),
		})
		.map(({ root, depth, spineKey, links }) => {
			let value: unknown = root;
			for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { [spineKey]: value } : [value];
			// Shared references and cycles: point some containers at others (an ancestor makes a cycle).
			const found = containers(value);
			for (const [from, to, key] of links) {
				if (found.length === 0) break;
				const source = found[from % found.length] as Record<string, unknown>;
				const target = found[to % found.length];
				if (Array.isArray(source)) source.push(target);
				else Object.defineProperty(source, `link${key}`, { value: target, enumerable: true, writable: true, configurable: true });
			}
			return value;
		});
};

const caseArb = fc.array(secretArb, { minLength: 1, maxLength: 2 }).chain((secrets) => fc.record({ secrets: fc.constant(secrets), value: valueWith(secrets[0]) }));

// ---------------------------------------------------------------------------------------------

/** The value wrapped in proxies that count how often each container's keys are listed and each property read. */
function counted(value: unknown) {
	const proxies = new Map<object, object>();
	const listings = new Map<object, number>();
	const reads = new Map<string, number>();
	const ids = new Map<object, number>();
	const wrap = (entry: unknown): unknown => (entry && typeof entry === 'object' ? proxies.get(entry) : entry);
	for (const target of containers(value)) {
		ids.set(target, ids.size);
		proxies.set(
			target,
			new Proxy(target, {
				ownKeys(inner) {
					listings.set(inner, (listings.get(inner) ?? 0) + 1);
					return Reflect.ownKeys(inner);
				},
				get(inner, property, receiver) {
					if (typeof property === 'string' && Object.prototype.hasOwnProperty.call(inner, property)) {
						const readKey = `${ids.get(inner)}:${property}`;
						reads.set(readKey, (reads.get(readKey) ?? 0) + 1);
						return wrap((inner as Record<string, unknown>)[property]);
					}
					return Reflect.get(inner, property, receiver);
				},
			}),
		);
	}
	return { proxy: wrap(value), listings, reads };
}

describe('redaction, over generated values', () => {
	it('R1 and R2: no form of any secret is left, in values or keys, at any depth, in any shape, and nothing throws', () => {
		fc.assert(
			fc.property(caseArb, ({ secrets, value }) => {
				const output = redactDeep(value, secrets);
				expect(leftovers(output, secrets)).toEqual([]);
				const [item] = withoutSecrets([{ json: value as IDataObject, pairedItem: { item: 3 } }], secrets);
				expect(leftovers(item.json, secrets)).toEqual([]);
				expect(item.pairedItem).toEqual({ item: 3 });
				// As n8n stores an item: JSON. Checked for key-like secrets: of 8 or more word characters
				// with a letter that no number is written with (a secret made of JSON punctuation could
				// span two strings of the serialised text, "t" is in true, "12345678" in a number), on
				// values JSON can write.
				if (/^[\w-]{8,}$/.test(secrets[0]) && /[a-df-z_]/i.test(secrets[0]) && containers(output).length < 2000 && !hasCycle(output)) {
					expect(JSON.stringify(output) ?? '').not.toContain(secrets[0]);
				}
			}),
			fuzzParameters(RUNS),
		);
	});

	it('R2: each container is listed once and each property read once (work linear in the size)', () => {
		fc.assert(
			fc.property(caseArb, ({ secrets, value }) => {
				const { proxy, listings, reads } = counted(value);
				redactDeep(proxy, secrets);
				expect([...listings.values()].filter((count) => count > 1)).toEqual([]);
				expect([...reads.entries()].filter(([, count]) => count > 1)).toEqual([]);
			}),
			fuzzParameters(RUNS),
		);
	});

	it('R3: a value without the secret is returned as it was, and a redacted one is redacted for good', () => {
		fc.assert(
			fc.property(caseArb, ({ secrets, value }) => {
				if (hasCycle(value)) return;
				const output = redactDeep(value, secrets);
				expect(redactDeep(output, secrets) === output).toBe(true);
				if (leftovers(value, secrets).length === 0) expect(output === value).toBe(true);
			}),
			fuzzParameters(RUNS),
		);
	});

	it('R4: an error carrying the secrets anywhere shows none of them after scrubError', () => {
		fc.assert(
			fc.property(caseArb, fc.boolean(), ({ secrets, value }, causeIsError) => {
				const secret = secrets[0];
				const error = new NodeApiError({ name: 'n', parameters: {} } as unknown as INode, { message: `failed ${secret}` } as JsonObject, {
					message: `failed ${secret}`,
					description: `see ${encodeURIComponent(secret)}`,
				});
				error.context.answer = value as IDataObject;
				error.context[`k${secret}`] = 1;
				(error as unknown as { errorResponse: unknown }).errorResponse = value;
				const cause = causeIsError ? new Error(`inner ${secret}`) : { detail: value };
				Object.defineProperty(error, 'cause', { value: cause, configurable: true, writable: true });

				scrubError(error, secrets);

				const shown = [error.message, error.description ?? '', error.stack ?? '', ...(error.messages ?? [])];
				expect(shown.filter((text) => secrets.flatMap(formsOf).some((form) => form !== '' && text.includes(form)))).toEqual([]);
				expect(leftovers([error.context, (error as unknown as { errorResponse: unknown }).errorResponse, (error as { cause?: unknown }).cause], secrets)).toEqual([]);
			}),
			fuzzParameters(RUNS),
		);
	});

	it('R1 for text: redact() leaves no form of the secret in any text', () => {
		fc.assert(
			fc.property(secretArb.chain((secret) => fc.tuple(fc.constant(secret), textWith(secret))), ([secret, text]) => {
				const result = redact(text, [secret]);
				expect(formsOf(secret).filter((form) => form !== '' && result.includes(form))).toEqual([]);
			}),
			fuzzParameters(RUNS),
		);
	});
});

function hasCycle(value: unknown): boolean {
	// Iterative depth-first search with colours: a grey container met again closes a cycle.
	const colour = new Map<object, 'grey' | 'black'>();
	const stack: Array<{ node: object; children: unknown[]; next: number }> = [];
	const open = (node: unknown) => {
		if (!node || typeof node !== 'object') return false;
		const state = colour.get(node);
		if (state === 'grey') return true;
		if (state === 'black') return false;
		colour.set(node, 'grey');
		stack.push({ node, children: Object.values(node), next: 0 });
		return false;
	};
	if (open(value)) return true;
	while (stack.length) {
		const top = stack[stack.length - 1];
		if (top.next < top.children.length) {
			if (open(top.children[top.next++])) return true;
		} else {
			colour.set(top.node, 'black');
			stack.pop();
		}
	}
	return false;
}
