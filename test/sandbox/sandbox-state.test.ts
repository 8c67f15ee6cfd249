/**
 * Each sandbox's own secrets and private state files (dev/n8n/sandbox-state.ts): made once per data
 * folder from crypto randomness, kept 0600 in a 0700 folder, read back unchanged later; n8n and
 * the servers it needs start with umask 077; a folder from before the secrets were random keeps
 * the key n8n already uses there.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { headlessEnv } from '../../dev/n8n/n8n-env';
import { FORMER_FIXED, SECRETS_FILE, newOwnerPassword, privateDir, sandboxSecrets, settingsFileKey, spawnPrivate, tightenStateModes } from '../../dev/n8n/sandbox-state';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

let root: string;

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-sandbox-state-'));
});

afterEach(() => {
	fs.rmSync(root, { recursive: true, force: true });
});

describe('sandboxSecrets: made once per folder, 0600 in 0700, reused', () => {
	test('the first call makes them: the file 0600, its folder 0700, nothing of the former fixed values', () => {
		const folder = path.join(root, 'start');
		const { secrets, file, created } = sandboxSecrets(folder);

		expect(created).toBe(true);
		expect(file).toBe(path.join(folder, SECRETS_FILE));
		expect(mode(file)).toBe(0o600);
		expect(mode(folder)).toBe(0o700);
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(secrets);
		expect(secrets.ownerPassword).not.toBe(FORMER_FIXED.ownerPassword);
		expect(secrets.encryptionKey).not.toBe(FORMER_FIXED.encryptionKey);
		expect(secrets.postgresPassword).not.toBe(FORMER_FIXED.postgresPassword);
		expect(secrets.encryptionKey.length).toBeGreaterThanOrEqual(40);
		expect(secrets.redisPassword).toMatch(/^[0-9a-f]{48}$/);
	});

	test('a later call reads the same secrets back and writes nothing', () => {
		const first = sandboxSecrets(root);
		const before = fs.statSync(first.file).mtimeMs;

		const second = sandboxSecrets(root);

		expect(second.created).toBe(false);
		expect(second.secrets).toEqual(first.secrets);
		expect(fs.statSync(second.file).mtimeMs).toBe(before);
	});

	test('two folders get different secrets', () => {
		const a = sandboxSecrets(path.join(root, 'a')).secrets;
		const b = sandboxSecrets(path.join(root, 'b')).secrets;
		expect(a.ownerPassword).not.toBe(b.ownerPassword);
		expect(a.encryptionKey).not.toBe(b.encryptionKey);
	});

	test('a file or folder found with wider modes is narrowed to 0600 / 0700', () => {
		const { file } = sandboxSecrets(root);
		fs.chmodSync(file, 0o644);
		fs.chmodSync(root, 0o755);

		sandboxSecrets(root);

		expect(mode(file)).toBe(0o600);
		expect(mode(root)).toBe(0o700);
	});

	test('a field missing from an older file is added; the others stay as they were', () => {
		const { file, secrets } = sandboxSecrets(root);
		const { redisPassword, ...older } = secrets;
		fs.writeFileSync(file, JSON.stringify(older));

		const again = sandboxSecrets(root).secrets;

		expect(again).toMatchObject(older);
		expect(again.redisPassword).toMatch(/^[0-9a-f]{48}$/);
		expect(again.redisPassword).not.toBe(redisPassword);
		expect(mode(file)).toBe(0o600);
	});

	test('the owner password passes n8n\'s rules (8 to 64 characters, a digit, an upper-case letter) every time', () => {
		for (let i = 0; i < 200; i++) {
			const password = newOwnerPassword();
			expect(password.length).toBeGreaterThanOrEqual(8);
			expect(password.length).toBeLessThanOrEqual(64);
			expect(password).toMatch(/\d/);
			expect(password).toMatch(/[A-Z]/);
		}
	});
});

describe('state files: 0600 in 0700 folders', () => {
	test('tightenStateModes narrows what an older version left 0644/0755 in the folder and its .n8n/', () => {
		const n8nDir = path.join(root, '.n8n');
		fs.mkdirSync(path.join(n8nDir, 'binaryData'), { recursive: true, mode: 0o755 });
		for (const file of ['database.sqlite', 'database.sqlite-wal', 'config', 'n8nEventLog.log']) fs.writeFileSync(path.join(n8nDir, file), 'x', { mode: 0o644 });
		fs.writeFileSync(path.join(root, 'n8n.log'), 'x', { mode: 0o644 });
		fs.chmodSync(root, 0o755);
		fs.chmodSync(n8nDir, 0o755);

		tightenStateModes(root);

		expect(mode(root)).toBe(0o700);
		expect(mode(n8nDir)).toBe(0o700);
		expect(mode(path.join(n8nDir, 'binaryData'))).toBe(0o700);
		for (const file of ['database.sqlite', 'database.sqlite-wal', 'config', 'n8nEventLog.log']) expect(mode(path.join(n8nDir, file))).toBe(0o600);
		expect(mode(path.join(root, 'n8n.log'))).toBe(0o600);
	});

	test('a child started by spawnPrivate creates files 0600 and folders 0700; this process\'s umask is unchanged', async () => {
		const before = process.umask();
		const child = spawnPrivate('sh', ['-c', 'echo x > file && mkdir dir'], { cwd: root, stdio: 'ignore' });
		await new Promise((resolve) => child.on('exit', resolve));

		expect(mode(path.join(root, 'file'))).toBe(0o600);
		expect(mode(path.join(root, 'dir'))).toBe(0o700);
		expect(process.umask()).toBe(before);
	});

	test('privateDir makes a missing folder 0700 and narrows an existing one', () => {
		const folder = path.join(root, 'a', 'b');
		expect(mode(privateDir(folder))).toBe(0o700);
		fs.chmodSync(folder, 0o777);
		expect(mode(privateDir(folder))).toBe(0o700);
	});
});

describe('headlessEnv: the preloads n8n gets', () => {
	test('offline (default): the host guard and the loopback guard; online: the host guard only', () => {
		const offline = headlessEnv(root).NODE_OPTIONS;
		const online = headlessEnv(root, { online: true }).NODE_OPTIONS;

		expect(offline).toMatch(/--require \S+host-guard\.cjs/);
		expect(offline).toMatch(/--require \S+loopback-guard\.cjs/);
		expect(online).toMatch(/--require \S+host-guard\.cjs/);
		expect(online).not.toMatch(/loopback-guard/);
	});
});

describe('a folder from before the secrets were random', () => {
	test('its existing encryption key is taken as is (n8n cannot change it); the owner password is new', () => {
		fs.mkdirSync(path.join(root, '.n8n'));
		fs.writeFileSync(path.join(root, '.n8n', 'config'), JSON.stringify({ encryptionKey: FORMER_FIXED.encryptionKey }));
		expect(settingsFileKey(root)).toBe(FORMER_FIXED.encryptionKey);

		const { secrets, created } = sandboxSecrets(root, { existingKey: settingsFileKey(root) });

		expect(created).toBe(true);
		expect(secrets.encryptionKey).toBe(FORMER_FIXED.encryptionKey);
		expect(secrets.ownerPassword).not.toBe(FORMER_FIXED.ownerPassword);
	});

	test('existingKey does not replace the key of a secrets file that has one', () => {
		const first = sandboxSecrets(root).secrets;
		expect(sandboxSecrets(root, { existingKey: 'another' }).secrets.encryptionKey).toBe(first.encryptionKey);
	});

	test('no settings file: no key', () => {
		expect(settingsFileKey(root)).toBeUndefined();
	});
});
