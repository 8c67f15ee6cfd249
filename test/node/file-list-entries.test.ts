/**
 * The editor's file list (File > From List, methods/listSearch.ts searchFiles): n8n shows only each
 * entry's name, so the name tells two uploads of one document apart: when it was uploaded (to the
 * minute), its status and the start of its ID. Once two entries read "receipt-R-7781.txt
 * (2026-11-28)" alike.
 */
import { listSearch } from '../../dev/harness';
import { seedFile } from './file-operations-support';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator();

describe('File locator: each entry of the list can be told apart', () => {
	it('shows two uploads of the same document in the same minute with their time, status and the start of their ID', async () => {
		const first = await seedFile(emulator, 'receipt-R-7781.txt');
		const second = await seedFile(emulator, 'receipt-R-7781.txt');

		const { results } = await listSearch({ type: 'documentExtraction', method: 'searchFiles', filter: 'receipt-R-7781', credentials: credentialsFor(emulator) });

		expect(results.map((result) => result.value)).toEqual([second.fileId, first.fileId]);
		for (const [result, file] of [[results[0], second], [results[1], first]] as const) {
			expect(result.name).toMatch(/^receipt-R-7781\.txt \(\d{4}-\d\d-\d\d \d\d:\d\d, processed, ID [0-9a-f]{8}…\)$/);
			expect(result.name).toContain(`ID ${file.fileId.slice(0, 8)}…`);
		}
		expect(new Set(results.map((result) => result.name)).size).toBe(2);
	});
});
