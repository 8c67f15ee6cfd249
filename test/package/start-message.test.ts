/**
 * `npm start`'s first line says what it will do with the cache as it is: use the cached n8n, or
 * install what is missing (without a time measured on another machine: the steps print their own),
 * never "minutes" when nothing needs installing. Once n8n is ready it prints what a user needs first:
 * the URL, the login from the sandbox's secrets file, the example to open first, how to go
 * online and how to stop; then the details, each explained.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { N8N_VERSION, NODE_VERSION, cachedRuntime } from '../../dev/n8n/n8n-runtime';
import { FORMER_FIXED } from '../../dev/n8n/sandbox-state';
import { exampleWorkflowFiles, readExample } from '../../dev/n8n/n8n-stack';
import { COLD_INSTALL_NOTE, EXAMPLES_IN_ORDER, engineNote, orderExamples, provisioningMessage, readyMessage, type ReadyInfo } from '../../dev/start-message';

let emptyCache: string;

beforeAll(() => {
	emptyCache = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-empty-cache-'));
});

afterAll(() => {
	fs.rmSync(emptyCache, { recursive: true, force: true });
});

describe('npm start: the provisioning message', () => {
	it('an empty cache: installs Node and n8n, once, saying it takes minutes', () => {
		const status = cachedRuntime({ cacheDir: emptyCache });

		expect(status).toMatchObject({ nodeReady: false, n8nReady: false });
		expect(provisioningMessage(status)).toBe(
			`Installing Node ${NODE_VERSION} and n8n ${N8N_VERSION} from the npm registry into ${emptyCache}: once only, ${COLD_INSTALL_NOTE}...`,
		);
	});

	it('both cached: says it uses the cached n8n and where, and nothing about installing', () => {
		const { runtime } = cachedRuntime({ cacheDir: emptyCache });

		const message = provisioningMessage({ runtime, nodeReady: true, n8nReady: true });

		expect(message).toBe(`Using the cached n8n ${N8N_VERSION} on Node ${NODE_VERSION} at ${path.join(emptyCache, `n8n-${N8N_VERSION}`)}`);
		expect(message).not.toMatch(/install|minutes/i);
	});

	it('Node cached, n8n not: installs n8n only and says Node is kept', () => {
		const { runtime } = cachedRuntime({ cacheDir: emptyCache });

		expect(provisioningMessage({ runtime, nodeReady: true, n8nReady: false })).toBe(
			`Installing n8n ${N8N_VERSION} from the npm registry into ${emptyCache} (Node ${NODE_VERSION} is already cached): once only, ${COLD_INSTALL_NOTE}...`,
		);
	});

	it('quotes no figure measured on another machine: the install steps print this machine\'s own times', () => {
		const { runtime } = cachedRuntime({ cacheDir: emptyCache });
		const message = provisioningMessage({ runtime, nodeReady: false, n8nReady: false });

		expect(message).not.toMatch(/\(\d+ s\)|about \d+ minutes|\d+ s\b|up to \d+/);
		expect(message).toContain('each step says how long it took');
	});
});

describe('npm start: what it prints once n8n is ready', () => {
	const examples = exampleWorkflowFiles().map((file) => ({ file, name: readExample(file).name, id: readExample(file).id }));
	const info: ReadyInfo = {
		command: 'npm start',
		seconds: 21,
		url: 'http://127.0.0.1:5678',
		ownerEmail: 'owner@example.com',
		ownerPassword: 'Ab3de-fGh4j-kLm5n-pQr6s',
		secretsFile: '/cache/start/sandbox-secrets.json',
		online: false,
		examples,
		emulator: { apiUrl: 'http://127.0.0.1:8787', apiKey: 'key-rw' },
		chatModelUrl: 'http://127.0.0.1:8790/v1',
		documentsDir: '/cache/start/documents',
		package: { name: 'n8n-nodes-document-extraction', version: '0.1.0', installedDir: '/cache/start/.n8n/nodes/node_modules/n8n-nodes-document-extraction' },
		dataDir: '/cache/start',
		logFiles: ['/cache/start/n8n.log'],
	};
	const text = readyMessage(info);
	const lines = text.split('\n');
	const indexOf = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));

	test('every example is in the start order, and the first one to try is upload-and-extract', () => {
		expect([...EXAMPLES_IN_ORDER].sort()).toEqual(exampleWorkflowFiles());
		expect(orderExamples(exampleWorkflowFiles())[0]).toBe('upload-and-extract.json');
		expect(orderExamples(['z-new.json', 'baseline-http-request.json', 'upload-and-extract.json', 'a-new.json'])).toEqual([
			'upload-and-extract.json',
			'baseline-http-request.json',
			'a-new.json',
			'z-new.json',
		]);
	});

	test('first the URL, the login with the sandbox\'s own password and where it is kept, then the example to open first, with its link', () => {
		expect(lines[indexOf(/^ {2}Open/)]).toBe('  Open        http://127.0.0.1:5678');
		expect(lines[indexOf(/^ {2}Log in/)]).toBe('  Log in      owner@example.com  /  Ab3de-fGh4j-kLm5n-pQr6s');
		expect(text).toContain('kept in /cache/start/sandbox-secrets.json');
		expect(text).not.toContain(FORMER_FIXED.ownerPassword);
		expect(lines[indexOf(/^ {2}Try first/)]).toBe('  Try first   "upload a document and read its values": http://127.0.0.1:5678/workflow/dexExUploadOne01, then Execute workflow');
		expect(indexOf(/^ {2}Open/)).toBeLessThan(indexOf(/^ {2}Log in/));
		expect(indexOf(/^ {2}Log in/)).toBeLessThan(indexOf(/^ {2}Try first/));
	});

	test('the other examples follow as links that open them in the editor, in the README\'s order, each once', () => {
		const fileOf = new Map(examples.map((example) => [example.id, example.file]));
		const linked = lines.filter((line) => /http:\/\/127\.0\.0\.1:5678\/workflow\/\w+$/.test(line)).map((line) => fileOf.get(/\/workflow\/(\w+)$/.exec(line)![1]));
		expect(linked).toEqual(EXAMPLES_IN_ORDER.slice(1));
		expect(text).not.toMatch(/examples\/[\w-]+\.json/);
	});

	test('the start order is the order of the README\'s examples table', () => {
		const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
		const table = readme.slice(readme.indexOf('### Examples'), readme.indexOf('## Install in n8n'));
		expect([...table.matchAll(/^\| \[([\w-]+\.json)\]/gm)].map((match) => match[1])).toEqual([...EXAMPLES_IN_ORDER]);
	});

	test('says the sandbox is shared by every clone of this repository on the machine', () => {
		expect(lines[indexOf(/^ {2}Data/)]).toBe('  Data        /cache/start  (0700; kept between starts, and shared by every clone');
		expect(text).toContain('of this repository on this machine: one sandbox, one login, the same workflows)');
	});

	test('offline: says the sandbox reaches only this machine and how to go online; then how to stop', () => {
		expect(text).toContain('n8n reaches only this machine');
		expect(text).toContain('stop and run: npm start -- --online');
		expect(lines[indexOf(/^ {2}Stop/)]).toMatch(/^ {2}Stop {8}Ctrl-C/);
		expect(indexOf(/^ {2}Offline/)).toBeLessThan(indexOf(/^Details$/));
		expect(indexOf(/^ {2}Stop/)).toBeLessThan(indexOf(/^Details$/));
	});

	test('online: says n8n may reach the service, and nothing about going online', () => {
		const online = readyMessage({ ...info, online: true });
		expect(online).toContain('n8n may connect to any host (--online)');
		expect(online).toContain('api.orion.file.ai');
		expect(online).not.toContain('stop and run');
	});

	test('the emulator\'s /__emulator/ is explained, and how the package is loaded and what the Community nodes page shows', () => {
		expect(text).toContain('http://127.0.0.1:8787/__emulator/ is its test control (request log, faults, clock), not part of the API');
		expect(text).toContain('unpacked into');
		expect(text).toContain('Settings > Community nodes lists only packages installed on that page, so it shows none here');
	});

	test('queue mode names its own command for going online and starting over', () => {
		const queue = readyMessage({ ...info, command: 'npm run start:queue', extraDetails: [{ label: 'Redis', text: '127.0.0.1 only' }] });
		expect(queue).toContain('stop and run: npm run start:queue -- --online');
		expect(queue).toContain('npm run start:queue -- --fresh starts over');
		expect(queue).toContain('  Redis       127.0.0.1 only');
	});

	test('npm install\'s EBADENGINE warnings are explained in one line on Node 20 (this package and isolated-vm) and 22, and not at all on 24', () => {
		expect(engineNote('20.19.0')).toMatch(/^\(npm install's "EBADENGINE" warnings on Node 20 are expected: isolated-vm[^\n]+this package, whose users need Node 22 or later[^\n]+\)$/);
		expect(engineNote('22.23.3')).toContain('Node 22');
		expect(engineNote('24.21.0')).toBeUndefined();
	});
});
