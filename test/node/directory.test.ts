import type { IDataObject } from 'n8n-workflow';

import { apiCalls, runOperation } from './run-operation';
import { useEmulator } from './support';

const emulator = useEmulator();

const HEX_24 = /^[0-9a-f]{24}$/;

describe('Directory > Create', () => {
	it('creates a root directory and outputs it, sent with an Idempotency-Key', async () => {
		const { items, error } = await runOperation(emulator, 'directory', 'create', {
			name: 'Invoices 2026',
			description: 'Supplier invoices',
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({
			name: 'Invoices 2026',
			description: 'Supplier invoices',
			status: 'active',
			depth: 0,
		});
		expect(items[0].json.id).toMatch(HEX_24);
		expect(items[0].json).not.toHaveProperty('parentId');
		const [post] = emulator.requests.filter((entry) => entry.method === 'POST');
		expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
		expect(emulator.state.directories.get(items[0].json.id as string)?.name).toBe('Invoices 2026');
	});

	it('creates a subdirectory under a parent given By ID', async () => {
		const parent = await runOperation(emulator, 'directory', 'create', { name: 'Parent' });
		const parentId = parent.items[0].json.id as string;

		const { items, error } = await runOperation(emulator, 'directory', 'create', {
			name: 'Child',
			parentDirectory: { __rl: true, mode: 'id', value: parentId },
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ name: 'Child', parentId, depth: 1, status: 'active' });
	});

	it('refuses a malformed parent id from an expression before any request, naming the parameter, item and form', async () => {
		const { items, error } = await runOperation(
			emulator,
			'directory',
			'create',
			{ name: 'Child', parentDirectory: { __rl: true, mode: 'id', value: '={{ $json.parent }}' } },
			{ inputItems: [{ json: { parent: 'not-a-directory' } }] },
		);

		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			'Invalid Parent Directory in item 0: expected 24 hexadecimal characters such as 6650a00000000000000e1001, got "not-a-directory"',
		);
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('a typed malformed parent id is flagged by the editor check: the engine refuses to run the node', async () => {
		await expect(
			runOperation(emulator, 'directory', 'create', {
				name: 'Child',
				parentDirectory: { __rl: true, mode: 'id', value: 'not-a-directory' },
			}),
		).rejects.toThrow('A directory ID is 24 hexadecimal characters');
		expect(apiCalls(emulator)).toEqual([]);
	});

	it('reports an unknown parent (404) and a parent too deep (422 with its pointer)', async () => {
		const missing = await runOperation(emulator, 'directory', 'create', {
			name: 'Orphan',
			parentDirectory: { __rl: true, mode: 'id', value: '0123456789abcdef01234567' },
		});
		expect(missing.error?.message).toContain('HTTP 404 NOT_FOUND');
		expect(missing.error?.message).toContain('0123456789abcdef01234567');

		const top = await runOperation(emulator, 'directory', 'create', { name: 'Top' });
		const child = await runOperation(emulator, 'directory', 'create', {
			name: 'Middle',
			parentDirectory: { __rl: true, mode: 'id', value: top.items[0].json.id },
		});
		const tooDeep = await runOperation(emulator, 'directory', 'create', {
			name: 'Bottom',
			parentDirectory: { __rl: true, mode: 'id', value: child.items[0].json.id },
		});
		expect(tooDeep.error?.message).toContain('HTTP 422 VALIDATION_FAILED');
		expect(tooDeep.error?.message).toContain('field /parentId');
		expect(tooDeep.error?.message).toContain('MAX_DEPTH_EXCEEDED');
	});

	it('with continueOnFail, outputs the directory of a good item and an error item for a bad one', async () => {
		const { items, error } = await runOperation(
			emulator,
			'directory',
			'create',
			{ name: '={{ $json.name }}' },
			{ continueOnFail: true, inputItems: [{ json: { name: 'Receipts' } }, { json: { name: '' } }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ name: 'Receipts', status: 'active' });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.error).toBe('Invalid Name in item 1: expected text of 1 to 255 characters, got ""');
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(apiCalls(emulator)).toEqual(['POST /directories']);
	});
});

describe('Directory > Create refuses values of the wrong type or form before any request', () => {
	const HEX = '24 hexadecimal characters such as 6650a00000000000000e1001';
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });

	it.each<[string, IDataObject, string]>([
		['a Name from an expression giving an object', { name: '={{ { a: 1 } }}' }, 'Invalid Name in item 0: expected text of 1 to 255 characters, not an object, got "{"a":1}"'],
		['a Name with a tab', { name: 'tab\there' }, 'Invalid Name in item 0: expected text of 1 to 255 characters on one line (no line breaks or control characters), got "tab\\there"'],
		['a Parent Directory from an expression giving a number', { name: 'Invoices', parentDirectory: byId('={{ 42 }}') }, `Invalid Parent Directory in item 0: expected ${HEX}, got "42"`],
		[
			'a Parent Directory from an expression giving an array',
			{ name: 'Invoices', parentDirectory: byId('={{ ["6650a00000000000000e9999"] }}') },
			`Invalid Parent Directory in item 0: expected ${HEX}, not an array, got "["6650a00000000000000e9999"]"`,
		],
		['a Description from an expression giving an object', { name: 'Invoices', description: '={{ { a: 1 } }}' }, 'Invalid Description in item 0: expected text, not an object, got "{"a":1}"'],
	])('%s', async (_case, parameters, message) => {
		const { error } = await runOperation(emulator, 'directory', 'create', parameters);

		expect(error?.message).toBe(message);
		expect(emulator.requests).toHaveLength(0);
	});

	it('keeps line breaks in a Description', async () => {
		const { items, error } = await runOperation(emulator, 'directory', 'create', { name: 'Notes', description: 'line one\nline two' });

		expect(error).toBeUndefined();
		expect(items[0].json.description).toBe('line one\nline two');
	});
});
