import { startEmulator, type Emulator } from '../../dev/emulator/index';
import { call, uploadAndGetFile, type Json } from './test-helpers';

const MISSING = '00000000-0000-4000-8000-000000000000';

async function threeFiles(emu: Emulator, prefix: string): Promise<string[]> {
	const ids: string[] = [];
	for (let index = 0; index < 3; index++) ids.push((await uploadAndGetFile(emu, `${prefix}${index}.txt`, `Invoice Number: ${prefix}-${index}\n`)).fileId);
	return ids;
}

async function listedIds(emu: Emulator, key?: string): Promise<string[]> {
	return (await call(emu, 'GET', '/files', { key })).body.files.map((file: Json) => file.fileId);
}

async function control(emu: Emulator, path: string, body: unknown): Promise<{ status: number; body: Json }> {
	const response = await fetch(`${emu.apiUrl}/__emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: response.status, body: await response.json() };
}

describe('partial delete: protected files', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0 });
	});
	afterAll(() => emu.close());
	afterEach(() => emu.state.protectedFiles.clear());

	test('a protected file is reported FORBIDDEN with the detail and fileId; the others are deleted', async () => {
		const [a, b, c] = await threeFiles(emu, 'P');
		emu.protectFiles([b], 'This file is under legal hold.');
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: [a, b, c, MISSING] } });
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			success: false,
			deletedFileIds: [a, c],
			errors: [
				{ fileId: b, code: 'FORBIDDEN', detail: 'This file is under legal hold.' },
				{ fileId: MISSING, code: 'NOT_FOUND', detail: `File ${MISSING} was not found.` },
			],
		});
		expect(await listedIds(emu)).toEqual([b]);
	});

	test('without a detail the refusal names the file; unprotected again, it is deleted', async () => {
		const [a] = await threeFiles(emu, 'Q');
		emu.protectFiles([a]);
		const refused = await call(emu, 'DELETE', '/files', { body: { fileIds: a } });
		expect(refused.body.errors).toEqual([{ fileId: a, code: 'FORBIDDEN', detail: expect.stringContaining(a) }]);
		emu.state.protectedFiles.clear();
		expect((await call(emu, 'DELETE', '/files', { body: { fileIds: a } })).body).toEqual({ success: true, deletedFileIds: [a] });
	});

	test("another workspace's protected file is still NOT_FOUND", async () => {
		const [a] = await threeFiles(emu, 'R');
		emu.protectFiles([a]);
		const reply = await call(emu, 'DELETE', '/files', { key: emu.keys.workspaceB, body: { fileIds: [a] } });
		expect(reply.body.errors).toEqual([{ fileId: a, code: 'NOT_FOUND', detail: expect.any(String) }]);
	});

	test('over HTTP: POST /__emulator/files/protect, DELETE to lift', async () => {
		const [a, b] = await threeFiles(emu, 'S');
		const set = await control(emu, '/files/protect', { fileIds: [a], detail: 'held' });
		expect(set).toEqual({ status: 200, body: { success: true, protected: [a] } });
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: [a, b] } });
		expect(reply.body).toEqual({ success: false, deletedFileIds: [b], errors: [{ fileId: a, code: 'FORBIDDEN', detail: 'held' }] });
		expect((await control(emu, '/files/protect', { fileIds: 'nope' })).status).toBe(400);
		expect((await fetch(`${emu.apiUrl}/__emulator/files/protect`, { method: 'DELETE' })).status).toBe(200);
		expect(emu.state.protectedFiles.size).toBe(0);
	});
});

describe("deleteAnswer: 'spec'", () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator({ processingDelayMs: 0, deleteAnswer: 'spec' });
	});
	afterAll(() => emu.close());

	test('all deleted: exactly { success: true }', async () => {
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: await threeFiles(emu, 'T') } });
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ success: true });
	});

	test('a partial failure: HTTP 200, exactly { success: false, errors }, no deletedFileIds', async () => {
		const [a, b, c] = await threeFiles(emu, 'U');
		emu.protectFiles([c], 'held');
		const reply = await call(emu, 'DELETE', '/files', { body: { fileIds: [a, MISSING, c] } });
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({
			success: false,
			errors: [
				{ fileId: MISSING, code: 'NOT_FOUND', detail: `File ${MISSING} was not found.` },
				{ fileId: c, code: 'FORBIDDEN', detail: 'held' },
			],
		});
		expect((await listedIds(emu)).sort()).toEqual([b, c].sort());
	});

	test('setDeleteAnswer switches at runtime, and POST /__emulator/delete-answer too', async () => {
		const [a, b, c] = await threeFiles(emu, 'V');
		emu.setDeleteAnswer('detailed');
		expect((await call(emu, 'DELETE', '/files', { body: { fileIds: [a] } })).body).toEqual({ success: true, deletedFileIds: [a] });
		expect(await control(emu, '/delete-answer', { shape: 'spec' })).toEqual({ status: 200, body: { shape: 'spec' } });
		expect((await call(emu, 'DELETE', '/files', { body: { fileIds: [b] } })).body).toEqual({ success: true });
		expect((await control(emu, '/delete-answer', { shape: 'other' })).status).toBe(400);
		expect((await call(emu, 'DELETE', '/files', { body: { fileIds: [c] } })).body).toEqual({ success: true });
	});
});
