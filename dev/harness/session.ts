/**
 * What every harness call needs: the loaded package(s), their node and credential types, and a
 * credentials helper over them. Our own package (the default) is built first if its sources
 * changed since the last build.
 */
import './container';

import { resolve } from 'node:path';

import { ensureBuilt } from './build';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { LoadedPackage, PackageFiles } from './registry';
import { HarnessCredentialTypes, HarnessNodeTypes, REPO_ROOT, loadPackage } from './registry';

export interface PackageOptions {
	/** package to load; default: this repository (built from dist/ by ensureBuilt) */
	packageDir?: string;
	/** further packages whose node types the workflow may use (a folder, or some files of one) */
	extraPackageDirs?: Array<string | PackageFiles>;
}

export interface HarnessSession {
	mainPackage: LoadedPackage;
	packages: LoadedPackage[];
	nodeTypes: HarnessNodeTypes;
	credentialTypes: HarnessCredentialTypes;
	credentialsHelper: HarnessCredentialsHelper;
}

export async function openSession(options: PackageOptions = {}): Promise<HarnessSession> {
	const packageDir = resolve(options.packageDir ?? REPO_ROOT);
	if (packageDir === REPO_ROOT) await ensureBuilt();
	const mainPackage = await loadPackage(packageDir);
	const extra = await Promise.all(
		(options.extraPackageDirs ?? []).map(async (dir) => (typeof dir === 'string' ? await loadPackage(dir) : await loadPackage(dir.directory, dir))),
	);
	const packages = [mainPackage, ...extra];
	const credentialTypes = new HarnessCredentialTypes(packages);
	return {
		mainPackage,
		packages,
		nodeTypes: HarnessNodeTypes.of(packages),
		credentialTypes,
		credentialsHelper: new HarnessCredentialsHelper(credentialTypes),
	};
}
