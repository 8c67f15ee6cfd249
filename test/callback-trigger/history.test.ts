/**
 * What the trigger remembers to recognise a repeated callback, and its bound: the handled keys in
 * static data (History Size of them, newest kept), read by another n8n process (or after a
 * restart, when the process's memory is gone), and what happens past the bound (a repeat of an
 * older upload is checked and emitted again: a duplicate at the bound, never a loss).
 */
import type { IDataObject } from 'n8n-workflow';

import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { CALLBACK_LIMITS } from '../../nodes/shared/limits';
import { readHistory, writeHistory } from '../../nodes/DocumentExtractionCallbackTrigger/history';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, completedBody, emittedFileIds, statusRequests } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);

async function uploads(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let index = 0; index < count; index++) ids.push((await uploadFile(emulator, `n${index}-${INVOICE_FILE_NAME}`, `${invoiceText()}Note: ${index}\n`)).uploadId);
	return ids;
}

describe('the history of handled callbacks', () => {
	it('keeps the newest History Size keys in static data; a repeat within them is a duplicate, an older one is emitted again', async () => {
		const trigger = await activateCallbackTrigger(emulator, { options: { historySize: 3 } });
		const ids = await uploads(5);
		for (const id of ids) expect(await trigger.post(completedBody(id))).toMatchObject({ status: 200, body: { outcome: 'emitted' } });
		expect(trigger.staticData()).toEqual({ version: 1, handled: ids.slice(2).map((id) => `u:${id}`) });

		expect(await trigger.post(completedBody(ids[4]))).toMatchObject({ body: { outcome: 'duplicate' } });
		// Past the bound: checked again through the API, and emitted again (documented).
		expect(await trigger.post(completedBody(ids[0]))).toMatchObject({ body: { outcome: 'emitted' } });
		expect(emittedFileIds(trigger)).toHaveLength(6);
	});

	it('another process (or n8n after a restart) reads the keys from static data: a repeat there is a duplicate, without a request', async () => {
		const first = await activateCallbackTrigger(emulator, {}, { nodeId: 'process-1' });
		const [id] = await uploads(1);
		await first.post(completedBody(id));
		const second = await activateCallbackTrigger(emulator, {}, { nodeId: 'process-2', staticData: first.staticData() });
		emulator.requests.length = 0;
		expect(await second.post(completedBody(id))).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
		expect(statusRequests(emulator)).toHaveLength(0);
		expect(second.emissions()).toEqual([]);
	});

	it('concurrent calls for different uploads each save the static data (the last save wins): the last save still names them all', async () => {
		const trigger = await activateCallbackTrigger(emulator, {}, { nodeId: 'concurrent' });
		const ids = await uploads(8);
		await Promise.all(ids.map(async (id) => await trigger.post(completedBody(id))));
		expect(new Set(trigger.staticData().handled as string[])).toEqual(new Set(ids.map((id) => `u:${id}`)));
	});

	it('static data that is not ours is started afresh; keys that are not short text are dropped', () => {
		expect(readHistory({ cursor: { at: null, ids: [] } })).toEqual([]);
		expect(readHistory({ version: 1, handled: ['u:a', 7, 'x'.repeat(500), null, 'u:b'] })).toEqual(['u:a', 'u:b']);
	});

	it('at most History Size keys, about 41 bytes each, whatever was read and remembered', () => {
		const staticData: IDataObject = { version: 1, handled: [] };
		const key = (index: number) => `u:${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`;
		const read = Array.from({ length: CALLBACK_LIMITS.maxHistorySize + 500 }, (_, index) => key(index));
		const remembered = Array.from({ length: 800 }, (_, index) => key(index + 20_000));
		writeHistory(staticData, read, remembered, CALLBACK_LIMITS.maxHistorySize);
		const handled = staticData.handled as string[];
		expect(handled).toHaveLength(CALLBACK_LIMITS.maxHistorySize);
		expect(handled.at(-1)).toBe(key(20_799));
		expect(JSON.stringify(staticData).length).toBeLessThanOrEqual(CALLBACK_LIMITS.maxHistorySize * 41 + 100);
	});
});
