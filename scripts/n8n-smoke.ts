/**
 * End-to-end smoke check of the real-n8n scripts: provisions n8n (ensureN8n), installs a
 * package as a community package, drives the CLI (import credential and workflow, execute,
 * publish), starts the server, sets up the owner, creates an API key, and lists the node and
 * credential types n8n loaded from the package. Prints what it saw; exits 1 when a check fails.
 *
 *   npx tsx scripts/n8n-smoke.ts            # this repository's package (built first)
 *   npx tsx scripts/n8n-smoke.ts --probe    # a throwaway package written under /tmp instead
 *   add --keep to keep the n8n user folder for a look afterwards
 *
 * When this repository's package does not build (yet), it says so and uses the probe package.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { n8nCli, nodeOutput } from '../dev/n8n/n8n-cli';
import { makeUserFolder, outboundAttempts } from '../dev/n8n/n8n-env';
import { startN8n } from '../dev/n8n/n8n-launcher';
import { installPackageInto, type InstalledPackage } from '../dev/n8n/n8n-package';
import { ensureN8n } from '../dev/n8n/n8n-runtime';

const PROBE_NAME = 'n8n-nodes-smoke-probe';
const failures: string[] = [];

function check(condition: boolean, what: string): void {
	process.stdout.write(`${condition ? 'ok  ' : 'FAIL'} ${what}\n`);
	if (!condition) failures.push(what);
}

function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
	const started = Date.now();
	const result = await work();
	say(`     ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
}

async function main(): Promise<void> {
	const useProbe = process.argv.includes('--probe');
	const keep = process.argv.includes('--keep');

	const runtime = await timed('ensureN8n', () => ensureN8n());
	await timed('ensureN8n again (warm)', () => ensureN8n());
	check(fs.existsSync(runtime.n8nEntry), `n8n installed at ${runtime.hostDir}`);

	const userFolder = makeUserFolder('n8n-smoke-');
	say(`     user folder: ${userFolder}`);

	let installed: InstalledPackage | undefined;
	if (!useProbe) {
		try {
			installed = await timed('build + install this package', () => installPackageInto(userFolder));
		} catch (error) {
			say(`     this package could not be installed: ${(error as Error).message.split('\n').slice(0, 6).join('\n     ')}`);
			say('     falling back to the probe package');
		}
	}
	const isProbe = !installed;
	if (!installed) {
		installed = await timed('install probe package', () =>
			installPackageInto(userFolder, { packageDir: writeProbePackage(), build: false }),
		);
	}
	check(
		fs.existsSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules', installed.name, 'package.json')),
		`${installed.name}@${installed.version} sits in .n8n/nodes/node_modules (${installed.files.length} files from npm pack)`,
	);

	const cli = n8nCli({ userFolder, runtime });
	if (isProbe) {
		const [credentialId] = await timed('import:credentials', () =>
			cli.importCredentials({ name: 'Smoke probe account', type: 'smokeProbeApi', data: { token: 'plain-json-data' } }),
		);
		const workflowId = await timed('import:workflow', () => cli.importWorkflow(probeWorkflow(credentialId)));
		const execution = await timed('execute --id (fresh folder)', () => cli.execute(workflowId));
		const items = nodeOutput(execution, 'Probe');
		say(`     Probe output: ${JSON.stringify(items)}`);
		check(items.length === 1 && items[0].probe === 'ok' && items[0].credentialSeen === true, 'CLI execution ran the probe node with its credential');
		await timed('publish:workflow', () => cli.publishWorkflow(workflowId));
	}

	const n8n = await timed('n8n start until ready + owner setup + API key', () => startN8n({ userFolder, runtime }));
	try {
		say(`     ${n8n.url} (pid ${n8n.pid}), login ${n8n.owner.email} / ${n8n.owner.password}`);
		check(n8n.cookie.startsWith('n8n-auth='), 'owner set up, session cookie received');
		check(n8n.apiKey.length > 20, 'public API key created');

		const me = await n8n.rest<{ email: string; role: string }>('/login');
		check(me.email === n8n.owner.email, `GET /rest/login -> ${me.email} (${me.role})`);

		const nodeTypes = (await (await n8n.request('/types/nodes.json')).json()) as Array<{ name: string; displayName: string; version: number | number[] }>;
		const credentialTypes = (await (await n8n.request('/types/credentials.json')).json()) as Array<{ name: string; displayName: string }>;
		const ours = nodeTypes.filter((type) => type.name.startsWith(`${installed.name}.`));
		say(`     n8n lists ${nodeTypes.length} node types, ${credentialTypes.length} credential types`);
		for (const type of ours) say(`       node ${type.name} "${type.displayName}" v${JSON.stringify(type.version)}`);
		if (ours.length === 0) {
			const loadErrors = n8n.logs().split('\n').filter((line, index, lines) => line.includes(installed.name) || lines[index - 1]?.includes(`"${installed.name}"`));
			for (const line of loadErrors.slice(0, 6)) say(`     n8n log: ${line}`);
		}
		const expectedNodes = expectedNodeTypes(installed);
		check(
			expectedNodes.length > 0 && expectedNodes.every((name) => ours.some((type) => type.name === name)),
			`every node of ${installed.name}'s n8n section is loaded: ${expectedNodes.join(', ')}`,
		);
		const expectedCredentials = expectedCredentialTypes(installed);
		const ourCredentials = credentialTypes.filter((type) => expectedCredentials.includes(type.name));
		for (const type of ourCredentials) say(`       credential ${type.name} "${type.displayName}"`);
		check(ourCredentials.length === expectedCredentials.length, `its credential types are loaded: ${expectedCredentials.join(', ')}`);

		// Only the declared nodes: the "<node>Tool" variant n8n lists for usableAsTool nodes is not a node type of its own.
		const declared = ours.filter((type) => expectedNodes.includes(type.name));
		const described = await n8n.rest<Array<{ name: string; properties: unknown[] }>>('/node-types', {
			body: { nodeInfos: declared.map((type) => ({ name: type.name, version: Array.isArray(type.version) ? Math.max(...type.version) : type.version })) },
		});
		check(described.length === declared.length && declared.length > 0, `POST /rest/node-types describes them (${described.map((d) => `${d.name}: ${d.properties.length} properties`).join('; ')})`);

		const workflows = await n8n.publicApi<{ data: Array<{ id: string; name: string; active: boolean }> }>('/workflows');
		say(`     public API /api/v1/workflows: ${JSON.stringify(workflows.data.map(({ id, name, active }) => ({ id, name, active })))}`);
		if (isProbe) check(workflows.data.length === 1 && workflows.data[0].active, 'public API lists the imported, published workflow as active');
		else check(Array.isArray(workflows.data), 'public API answers with the API key');
		say(`     n8n peak RSS so far: ${(n8n.peakRssBytes() / 1024 / 1024).toFixed(0)} MB`);
	} finally {
		await timed('stop', () => n8n.stop());
	}
	const attempts = outboundAttempts(userFolder);
	for (const attempt of attempts) say(`     ${attempt}`);
	check(attempts.length === 0, 'no n8n process tried to connect to anything but 127.0.0.1');
	if (keep) say(`     kept ${userFolder}`);
	else fs.rmSync(userFolder, { recursive: true, force: true });

	say(failures.length ? `\n${failures.length} check(s) failed` : '\nall checks passed');
	process.exitCode = failures.length ? 1 : 0;
}

function packageManifest(installed: InstalledPackage): { n8n?: { nodes?: string[]; credentials?: string[] } } {
	return JSON.parse(fs.readFileSync(path.join(installed.installedDir, 'package.json'), 'utf8'));
}

/**
 * The type names n8n should list, from the files in the package's n8n section and the naming
 * convention of n8n packages: Foo.node.js declares node `foo`, FooApi.credentials.js credential `fooApi`.
 */
function expectedNodeTypes(installed: InstalledPackage): string[] {
	return (packageManifest(installed).n8n?.nodes ?? []).map((file) => `${installed.name}.${lowerCamel(path.basename(file, '.node.js'))}`);
}

function expectedCredentialTypes(installed: InstalledPackage): string[] {
	return (packageManifest(installed).n8n?.credentials ?? []).map((file) => lowerCamel(path.basename(file, '.credentials.js')));
}

function lowerCamel(className: string): string {
	return className.charAt(0).toLowerCase() + className.slice(1);
}

/** A tiny community package (one node, one credential) written as plain JavaScript under /tmp. */
function writeProbePackage(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-smoke-probe-'));
	const write = (file: string, content: string) => {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.writeFileSync(path.join(dir, file), content);
	};
	write(
		'package.json',
		JSON.stringify(
			{
				name: PROBE_NAME,
				version: '0.0.1',
				keywords: ['n8n-community-node-package'],
				files: ['dist'],
				n8n: {
					n8nNodesApiVersion: 1,
					credentials: ['dist/credentials/SmokeProbeApi.credentials.js'],
					nodes: ['dist/nodes/SmokeProbe/SmokeProbe.node.js'],
				},
				peerDependencies: { 'n8n-workflow': '*' },
			},
			null,
			2,
		),
	);
	write(
		'dist/credentials/SmokeProbeApi.credentials.js',
		`class SmokeProbeApi {
	constructor() {
		this.name = 'smokeProbeApi';
		this.displayName = 'Smoke Probe API';
		this.properties = [{ displayName: 'Token', name: 'token', type: 'string', typeOptions: { password: true }, default: '' }];
	}
}
module.exports = { SmokeProbeApi };
`,
	);
	write(
		'dist/nodes/SmokeProbe/SmokeProbe.node.js',
		`class SmokeProbe {
	constructor() {
		this.description = {
			displayName: 'Smoke Probe',
			name: 'smokeProbe',
			group: ['transform'],
			version: 1,
			description: 'Marks items so a smoke test can see that n8n ran this package',
			defaults: { name: 'Smoke Probe' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'smokeProbeApi', required: true }],
			properties: [],
		};
	}
	async execute() {
		const credentials = await this.getCredentials('smokeProbeApi');
		return [this.getInputData().map((item, index) => ({
			json: { ...item.json, probe: 'ok', credentialSeen: credentials.token === 'plain-json-data' },
			pairedItem: { item: index },
		}))];
	}
}
module.exports = { SmokeProbe };
`,
	);
	return dir;
}

function probeWorkflow(credentialId: string): object {
	return {
		name: 'Smoke probe workflow',
		nodes: [
			{ id: 'a1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'a2',
				name: 'Probe',
				type: `${PROBE_NAME}.smokeProbe`,
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
				credentials: { smokeProbeApi: { id: credentialId, name: 'Smoke probe account' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
		settings: {},
		active: false,
	};
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exitCode = 1;
});
