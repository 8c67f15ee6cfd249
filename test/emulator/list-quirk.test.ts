/** Broken list answers (listQuirkNext): a list endpoint that ignores `page`, or repeats an item. */
import { addFiles } from './bulk-files';
import { startEmulator, type Emulator } from './index';
import { call } from './test-helpers';

describe('listQuirkNext', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0, seed: false });
		addFiles(emu.state, 5, { createdAtMs: (i) => Date.UTC(2026, 0, 1) + i });
	});
	afterAll(() => emu.close());
	afterEach(() => emu.faults.clear());

	const ids = (body: { files: Array<{ fileId: string }> }) => body.files.map((file) => file.fileId);

	test("'ignore-page' answers page 1 to every page, for `count` requests, logged as quirk", async () => {
		const first = await call(emu, 'GET', '/files', { query: { limit: '2', page: '1' } });
		emu.faults.listQuirkNext({ method: 'GET', path: '/files', quirk: 'ignore-page', count: 2 });
		for (const page of ['2', '3']) {
			const reply = await call(emu, 'GET', '/files', { query: { limit: '2', page } });
			expect(reply.status).toBe(200);
			expect(ids(reply.body)).toEqual(ids(first.body));
			expect(reply.body.count).toBe(5);
		}
		expect(emu.requests.at(-1)).toMatchObject({ fault: 'quirk', query: { page: '3' } });
		const after = await call(emu, 'GET', '/files', { query: { limit: '2', page: '2' } });
		expect(ids(after.body)).not.toEqual(ids(first.body));
	});

	test("'repeat-id' lists the first file twice, the copy right after it", async () => {
		const plain = await call(emu, 'GET', '/files', { query: { limit: '3' } });
		emu.faults.listQuirkNext({ method: 'GET', path: '/files', quirk: 'repeat-id' });
		const reply = await call(emu, 'GET', '/files', { query: { limit: '3' } });
		const [a, b, c] = ids(plain.body);
		expect(ids(reply.body)).toEqual([a, a, b, c]);
		expect(emu.faults.pending().quirk).toEqual([]);
	});
});
