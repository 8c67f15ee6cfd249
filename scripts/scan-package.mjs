// n8n's own verification scanner over the package exactly as npm would publish it:
// `npm pack`, unpack into a temporary folder, then @n8n/scan-community-package's analyzePackage.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const workDir = mkdtempSync(join(tmpdir(), 'dex-scan-'));
try {
	execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', workDir], { stdio: ['ignore', 'ignore', 'inherit'] });
	const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
	execFileSync('tar', ['xzf', join(workDir, tarball), '-C', workDir]);
	const result = await analyzePackage(join(workDir, 'package'));
	if (result.passed) {
		console.log(`n8n community package scan: passed (${tarball})`);
	} else {
		console.error(`n8n community package scan: FAILED: ${result.message}${result.details ? `\n${result.details}` : ''}`);
		process.exitCode = 1;
	}
} finally {
	rmSync(workDir, { recursive: true, force: true });
}
