/**
 * Queue mode with binary data in `filesystem` mode and one N8N_STORAGE_PATH shared by main and the
 * workers (the variant for files above the database mode's 512 MiB): a file posted to a webhook on
 * main is stored by main in the shared folder, uploaded and downloaded on a worker, and served by
 * main; nothing goes to a process's own .n8n/storage.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startQueueStack, type QueueStack } from '../../dev/n8n/queue/queue-stack';
import { webhookFileThroughWorker } from './webhook-check';
import { WEBHOOK_UPLOAD } from '../../dev/n8n/queue/workflows';

function filesUnder(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('queue mode with filesystem binary data in one shared N8N_STORAGE_PATH', () => {
	let stack: QueueStack;
	let rootDir: string;

	beforeAll(async () => {
		rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-queue-fs-'));
		stack = await startQueueStack({
			rootDir,
			build: false,
			binaryDataMode: 'filesystem',
			workflows: () => [WEBHOOK_UPLOAD],
			publish: [WEBHOOK_UPLOAD.id!],
			log: (line) => process.stderr.write(`[queue fs] ${line}\n`),
		});
	});

	afterAll(async () => {
		await stack?.stop();
		if (rootDir && !process.env.E2E_KEEP) fs.rmSync(rootDir, { recursive: true, force: true });
	});

	test('a file posted to a webhook on main is uploaded and downloaded on a worker through the shared folder', async () => {
		const binaryId = await webhookFileThroughWorker(stack);
		expect(binaryId).toMatch(/^filesystem/);
		// Main's webhook file and the worker's download both sit in the shared folder.
		expect(filesUnder(path.join(rootDir, 'storage')).filter((file) => !file.endsWith('.metadata')).length).toBeGreaterThanOrEqual(2);
		for (const folder of [stack.mainFolder, ...stack.workers.map((worker) => worker.userFolder)]) {
			expect(filesUnder(path.join(folder, '.n8n', 'storage'))).toEqual([]);
		}
	});
});
