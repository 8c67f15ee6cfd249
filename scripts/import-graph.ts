/**
 * The repository's import graph: which source file imports which (static `import`/`export from`,
 * `require()`, `import()`, and files named by `join(__dirname, '…')`, such as a worker script or a
 * preloaded guard), the files an entry point reaches, the import circles, and the layer rules of
 * scripts/import-rules.ts checked against it.
 *
 *   npx tsx scripts/import-graph.ts                 # every rule; what npm start reaches
 *   npx tsx scripts/import-graph.ts dev/start.ts    # the files one entry point reaches
 *
 * It also draws the floors of nodes/shared/ (each file or folder of it one part; a part stands a
 * floor above the highest part it imports): the picture docs/dev/architecture.md shows.
 *
 * Exits 1 when an import breaks a rule or when `npm start` / `npm run start:queue` reach a file
 * under test/. test/package/import-graph.test.ts checks the same.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

import { CIRCLE, IMPORT_RULES, type ImportRule } from './import-rules';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..');

/** The folders whose files make up the graph, with the source files at the root (config files). */
export const SOURCE_FOLDERS = ['nodes', 'credentials', 'dev', 'scripts', 'test', 'bench'] as const;

/** The folders whose floors `npm run check:imports` draws (docs/dev/architecture.md shows them). */
export const PICTURED_FOLDERS = ['nodes/shared'] as const;

const SOURCE_FILE = /\.(ts|js|cjs|mjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.n8n']);
const RESOLVE_SUFFIXES = ['', '.ts', '.js', '.cjs', '.mjs', '/index.ts', '/index.js'];

/** Repository-relative path (forward slashes) -> the repository-relative files it imports. */
export type ImportGraph = Map<string, Set<string>>;

/** The root's own source files (jest, eslint and gulp configs, index.js), not its folders. */
function rootFiles(root: string): string[] {
	return fs
		.readdirSync(root, { withFileTypes: true })
		.filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts'))
		.map((entry) => entry.name);
}

function sourceFiles(root: string, folder: string): string[] {
	const found: string[] = [];
	const walk = (dir: string): void => {
		if (!fs.existsSync(dir)) return;
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			if (SKIPPED_FOLDERS.has(entry.name)) continue;
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path.relative(root, full).split(path.sep).join('/'));
		}
	};
	walk(path.join(root, folder));
	return found;
}

function resolveRelative(root: string, fromFile: string, specifier: string, suffixes = RESOLVE_SUFFIXES): string | undefined {
	const base = path.join(path.dirname(path.join(root, fromFile)), specifier);
	for (const suffix of suffixes) {
		const candidate = base + suffix;
		if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(root, candidate).split(path.sep).join('/');
	}
	return undefined;
}

/** `join(__dirname, 'a', 'b.cjs')` / `resolve(__dirname, …)` with only string literals after `__dirname`. */
const DIRNAME_PATH = /\b(?:join|resolve)\(\s*__dirname\s*((?:,\s*(?:'[^']*'|"[^"]*")\s*)+)\)/g;

/** The repository files `file` imports (relative specifiers only: packages are not part of the graph). */
export function importsOf(root: string, file: string): Set<string> {
	const text = fs.readFileSync(path.join(root, file), 'utf8');
	const targets = new Set<string>();
	const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
	for (const specifier of specifiers) {
		if (!specifier.startsWith('.')) continue;
		const target = resolveRelative(root, file, specifier);
		if (target) targets.add(target);
	}
	for (const match of text.matchAll(DIRNAME_PATH)) {
		const parts = [...match[1].matchAll(/'([^']*)'|"([^"]*)"/g)].map((part) => part[1] ?? part[2]);
		const target = resolveRelative(root, file, `./${parts.join('/')}`, ['']);
		if (target && SOURCE_FILE.test(target)) targets.add(target);
	}
	return targets;
}

/** The graph of every source file under `folders` and at the root. */
export function importGraph(root = REPOSITORY_ROOT, folders: readonly string[] = SOURCE_FOLDERS): ImportGraph {
	const graph: ImportGraph = new Map();
	for (const file of rootFiles(root)) graph.set(file, importsOf(root, file));
	for (const folder of folders) for (const file of sourceFiles(root, folder)) graph.set(file, importsOf(root, file));
	return graph;
}

/** Every file reached from `entries` (the entries included), following the graph's edges. */
export function reachedFrom(graph: ImportGraph, entries: readonly string[]): string[] {
	const seen = new Set<string>();
	const stack = [...entries];
	while (stack.length > 0) {
		const file = stack.pop() as string;
		if (seen.has(file)) continue;
		seen.add(file);
		for (const target of graph.get(file) ?? []) stack.push(target);
	}
	return [...seen].sort();
}

/** The import circles: each a strongly connected set of two or more files (or a file importing itself). */
export function importCircles(graph: ImportGraph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const circles: string[][] = [];
	let next = 0;
	const visit = (file: string): void => {
		index.set(file, next);
		low.set(file, next);
		next += 1;
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!graph.has(target)) continue;
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const members: string[] = [];
		for (;;) {
			const member = stack.pop() as string;
			onStack.delete(member);
			members.push(member);
			if (member === file) break;
		}
		if (members.length > 1 || graph.get(file)?.has(file)) circles.push(members.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return circles;
}

/** A glob over repository paths as a RegExp: `**` any run of folders (or none), `*` and `?` within one name. */
function globRegExp(glob: string): RegExp {
	let pattern = '';
	for (let index = 0; index < glob.length; index += 1) {
		const char = glob[index];
		if (glob.startsWith('**/', index)) {
			pattern += '(?:.*/)?';
			index += 2;
		} else if (glob.startsWith('**', index)) {
			pattern += '.*';
			index += 1;
		} else if (char === '*') pattern += '[^/]*';
		else if (char === '?') pattern += '[^/]';
		else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
	}
	return new RegExp(`^${pattern}$`);
}

/** Whether `file` matches `globs`: at least one glob and none of the `!` globs. */
export function matchesGlobs(globs: readonly string[], file: string): boolean {
	let matched = false;
	for (const glob of globs) {
		if (glob.startsWith('!')) {
			if (globRegExp(glob.slice(1)).test(file)) return false;
		} else if (globRegExp(glob).test(file)) matched = true;
	}
	return matched;
}

/** The graph of the chain `files` (each imports the next). */
export function chainGraph(files: readonly string[]): ImportGraph {
	const graph: ImportGraph = new Map(files.map((file) => [file, new Set<string>()]));
	for (let index = 1; index < files.length; index += 1) graph.get(files[index - 1])?.add(files[index]);
	return graph;
}

/** The imports of `graph` that break `rule`, each a sentence naming the rule and the files. */
export function ruleViolations(graph: ImportGraph, rule: ImportRule): string[] {
	const inScope = (file: string) => matchesGlobs(rule.from, file);
	if (rule.forbidden === CIRCLE) {
		const scoped: ImportGraph = new Map();
		for (const [file, targets] of graph) if (inScope(file)) scoped.set(file, new Set([...targets].filter(inScope)));
		return importCircles(scoped).map((circle) => `import circle among ${circle.join(', ')}: breaks the rule "${rule.name}"`);
	}
	const forbidden = rule.forbidden;
	const violations: string[] = [];
	for (const [file, targets] of graph) {
		if (!inScope(file)) continue;
		for (const target of targets) if (matchesGlobs(forbidden, target)) violations.push(`${file} imports ${target}: breaks the rule "${rule.name}"`);
	}
	return violations.sort();
}

/** A folder's parts: its files and its sub-folders (`api/`), each taken as one. */
export function partOf(folder: string, file: string): string | undefined {
	if (!file.startsWith(`${folder}/`)) return undefined;
	const [first, ...rest] = file.slice(folder.length + 1).split('/');
	return rest.length > 0 ? `${first}/` : first;
}

/** The import picture of one folder: its parts, the arrows between them, their circles and floors. */
export interface FolderPicture {
	parts: number;
	/** Part -> the other parts of the folder it imports. */
	arrows: Map<string, Set<string>>;
	/** Parts that import each other, directly or round a chain (each circle a list of parts). */
	circles: string[][];
	/** Floors from the top: a part stands one floor above the highest part it imports (a circle counts as one part). */
	floors: string[][];
}

/** How `folder`'s parts import each other (imports from outside the folder are not arrows here). */
export function folderPicture(graph: ImportGraph, folder: string): FolderPicture {
	const arrows = new Map<string, Set<string>>();
	for (const [file, targets] of graph) {
		const part = partOf(folder, file);
		if (part === undefined) continue;
		const out = arrows.get(part) ?? new Set<string>();
		arrows.set(part, out);
		for (const target of targets) {
			const to = partOf(folder, target);
			if (to !== undefined && to !== part) out.add(to);
		}
	}
	const circles = importCircles(arrows);
	const circleOf = new Map<string, string>();
	for (const circle of circles) for (const part of circle) circleOf.set(part, circle.join(' + '));
	const unit = (part: string) => circleOf.get(part) ?? part;
	const height = new Map<string, number>();
	const heightOf = (name: string): number => {
		const known = height.get(name);
		if (known !== undefined) return known;
		height.set(name, 1);
		let floor = 1;
		for (const [part, targets] of arrows) {
			if (unit(part) !== name) continue;
			for (const target of targets) if (unit(target) !== name) floor = Math.max(floor, heightOf(unit(target)) + 1);
		}
		height.set(name, floor);
		return floor;
	};
	for (const part of arrows.keys()) heightOf(unit(part));
	const top = Math.max(0, ...height.values());
	const floors = Array.from({ length: top }, (_, index) => [...height].filter(([, floor]) => floor === top - index).map(([name]) => name).sort());
	return { parts: arrows.size, arrows, circles, floors };
}

/** The file an npm script runs with tsx (`"start": "tsx dev/start.ts"` -> `dev/start.ts`). */
export function npmScriptEntry(script: string, root = REPOSITORY_ROOT): string {
	const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
	const match = /^tsx\s+(\S+)/.exec(scripts[script] ?? '');
	if (!match) throw new Error(`package.json's script "${script}" does not run a file with tsx: ${scripts[script]}`);
	return match[1];
}

function main(): void {
	const graph = importGraph();
	let failed = false;
	console.log(`${graph.size} files under ${SOURCE_FOLDERS.join(', ')} and at the root`);
	for (const rule of IMPORT_RULES) {
		const violations = ruleViolations(graph, rule);
		console.log(`${violations.length === 0 ? 'ok  ' : 'FAIL'} ${rule.name}${violations.length === 0 ? '' : ` (${rule.why})`}`);
		for (const violation of violations) console.log(`       ${violation}`);
		if (violations.length > 0) failed = true;
	}
	for (const folder of PICTURED_FOLDERS) {
		const picture = folderPicture(graph, folder);
		const arrows = [...picture.arrows.values()].reduce((sum, targets) => sum + targets.size, 0);
		console.log(`${folder}/: ${picture.parts} parts, ${arrows} arrows between them, ${picture.floors.length} floors, ${picture.circles.length} circles${picture.circles.map((circle) => ` (${circle.join(' <-> ')})`).join('')}`);
		picture.floors.forEach((floor, index) => console.log(`  ${String(picture.floors.length - index).padStart(2)}  ${floor.join('  ')}`));
	}
	const entries = process.argv.slice(2);
	const checks = entries.length > 0 ? entries.map((entry) => ({ name: entry, entry })) : ['start', 'start:queue'].map((name) => ({ name: `npm run ${name}`, entry: npmScriptEntry(name) }));
	for (const { name, entry } of checks) {
		const reached = reachedFrom(graph, [entry]);
		const fromTest = reached.filter((file) => file.startsWith('test/'));
		const folders = [...new Set(reached.map((file) => file.split('/').slice(0, -1).join('/')))].sort();
		console.log(`${name} (${entry}): ${reached.length} files in ${folders.join(', ')}; under test/: ${fromTest.length === 0 ? 'none' : fromTest.join(', ')}`);
		if (entries.length > 0) for (const file of reached) console.log(`  ${file}`);
		if (fromTest.length > 0) failed = true;
	}
	process.exitCode = failed ? 1 : 0;
}

if (require.main === module) main();
