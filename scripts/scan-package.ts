/**
 * n8n's own verification scanner over the package exactly as npm would publish it (the same
 * `npm pack` + unpack that installs it into n8n), with @n8n/scan-community-package's analyzePackage.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { REPOSITORY_ROOT, unpackPackage } from '../dev/n8n/n8n-package';

async function main(): Promise<void> {
	const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-scan-'));
	try {
		const unpacked = await unpackPackage(REPOSITORY_ROOT, () => path.join(workDir, 'package'));
		const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
		const result = await analyzePackage(unpacked.directory);
		if (result.passed) {
			console.log(`n8n community package scan: passed (${unpacked.name}@${unpacked.version}, ${unpacked.files.length} files)`);
		} else {
			console.error(`n8n community package scan: FAILED: ${result.message}${result.details ? `\n${result.details}` : ''}`);
			process.exitCode = 1;
		}
	} finally {
		fs.rmSync(workDir, { recursive: true, force: true });
	}
}

void main();
