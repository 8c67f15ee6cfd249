/**
 * The CLI imports write their JSON into an `import-*` folder of the user folder (private, as the
 * folder is) and remove it afterwards, also when the import fails; `npm start` also removes the
 * ones older versions left behind in the cache (dev/n8n/sandbox.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { removeScratchFolders, withScratchFile } from '../../dev/n8n/n8n-cli';

let userFolder: string;
const scratchFolders = () => fs.readdirSync(userFolder).filter((name) => name.startsWith('import-'));

beforeEach(() => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-scratch-'));
});

afterEach(() => {
	fs.rmSync(userFolder, { recursive: true, force: true });
});

describe('import scratch files', () => {
	it('the file exists, private, while the import reads it; its folder is gone afterwards', async () => {
		const seen = await withScratchFile(userFolder, 'workflows.json', '[{"name":"x"}]', async (file) => {
			expect(path.dirname(path.dirname(file))).toBe(userFolder);
			expect(scratchFolders()).toHaveLength(1);
			return { text: fs.readFileSync(file, 'utf8'), mode: fs.statSync(file).mode & 0o777 };
		});

		expect(seen).toEqual({ text: '[{"name":"x"}]', mode: 0o600 });
		expect(scratchFolders()).toEqual([]);
	});

	it('a failed import leaves nothing behind either, and its error comes through', async () => {
		await expect(withScratchFile(userFolder, 'credentials.json', '[]', async () => Promise.reject(new Error('import failed')))).rejects.toThrow('import failed');
		expect(scratchFolders()).toEqual([]);
	});

	it('the folders older versions left are removed; other folders stay', () => {
		for (const name of ['import-a1B2c3', 'import-Zz9yX8', '.n8n', 'documents']) fs.mkdirSync(path.join(userFolder, name));
		fs.writeFileSync(path.join(userFolder, 'import-a1B2c3', 'workflows.json'), '[]');

		expect(removeScratchFolders(userFolder).sort()).toEqual(['import-Zz9yX8', 'import-a1B2c3']);
		expect(fs.readdirSync(userFolder).sort()).toEqual(['.n8n', 'documents']);
	});
});
