/** Broken list answers: a list endpoint that ignores `page` (ignorePageNext), or repeats an item (repeatIdNext). */
import { addFiles } from '../../dev/emulator/bulk-files';
import { startEmulator, type Emulator } from '../../dev/emulator/index';
import { call } from './test-helpers';

describe('broken list answers', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0, seed: false });
		addFiles(emu.state, 5, { createdAtMs: (i) => Date.UTC(2026, 0, 1) + i });
	});
	afterAll(() => emu.close());
	afterEach(() => emu.faults.clear());

	const ids = (body: { files: Array<{ fileId: string }> }) => body.files.map((file) => file.fileId);

	test('ignorePageNext answers page 1 to every page, for `count` requests', async () => {
		const first = await call(emu, 'GET', '/files', { query: { limit: '2', page: '1' } });
		emu.faults.ignorePageNext({ method: 'GET', path: '/files', count: 2 });
		for (const page of ['2', '3']) {
			const reply = await call(emu, 'GET', '/files', { query: { limit: '2', page } });
			expect(reply.status).toBe(200);
			expect(ids(reply.body)).toEqual(ids(first.body));
			expect(reply.body.count).toBe(5);
		}
		expect(emu.requests.at(-1)).toMatchObject({ fault: 'ignore-page' });
		const after = await call(emu, 'GET', '/files', { query: { limit: '2', page: '2' } });
		expect(ids(after.body)).not.toEqual(ids(first.body));
	});

	test('repeatIdNext lists the first file twice, the copy right after it, logged as repeat-id', async () => {
		const plain = await call(emu, 'GET', '/files', { query: { limit: '3' } });
		emu.faults.repeatIdNext({ method: 'GET', path: '/files' });
		const reply = await call(emu, 'GET', '/files', { query: { limit: '3' } });
		const [a, b, c] = ids(plain.body);
		expect(ids(reply.body)).toEqual([a, a, b, c]);
		expect(emu.requests.at(-1)).toMatchObject({ fault: 'repeat-id' });
		expect(emu.faults.pending().repeatId).toEqual([]);
	});
});
