/**
 * The reliability matrix: every fault, bad input and hostile credential case of
 * bench/reliability/ run through the n8n engine against a fresh emulator each, measured from the
 * emulator's records (requests, documents, where the key went), printed as tables.
 *
 *   npm run matrix                 prints the tables and the totals
 *   npm run matrix -- --write      also writes them into docs/reliability.md
 *   npm run matrix -- --only 429   only the cases whose name or operation contains the text
 *   npm run matrix -- --group fault   only one group (fault, input, credential, trigger)
 *
 * Exits 1 when a case did not end as expected, or a document was lost or duplicated, or the key
 * reached another host or was shown.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ensureBuilt } from '../dev/harness';
import { CREDENTIAL_CASES } from './reliability/credentials';
import { FAULT_CASES } from './reliability/faults';
import { INPUT_CASES } from './reliability/inputs';
import { TRIGGER_CASES, runTriggerCase } from './reliability/trigger';
import type { CaseResult, MatrixCase } from './reliability/matrix';
import { markdownTable, runCase, totals } from './reliability/matrix';

const DOC = join(__dirname, '..', 'docs', 'reliability.md');
const BEGIN = '<!-- matrix:begin -->';
const END = '<!-- matrix:end -->';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? (process.argv[index + 1] ?? '') : undefined;
}

async function runAll(cases: MatrixCase[], label: string): Promise<CaseResult[]> {
	const results: CaseResult[] = [];
	for (const [index, matrixCase] of cases.entries()) {
		const result = await runCase(matrixCase, results.length);
		results.push(result);
		process.stderr.write(
			`[matrix] ${label} ${index + 1}/${cases.length} ${result.asExpected ? 'ok ' : 'NOT AS EXPECTED'} ${matrixCase.name}: ${result.outcome.slice(0, 100)}\n`,
		);
	}
	return results;
}

async function main(): Promise<void> {
	await ensureBuilt();
	const only = option('only');
	const group = option('group');
	const pick = (cases: MatrixCase[]) =>
		cases.filter(
			(c) => (!only || c.name.includes(only) || c.operation.includes(only)) && (!group || c.group === group),
		);
	const started = Date.now();
	const faults = await runAll(pick(FAULT_CASES), 'fault');
	const inputs = await runAll(pick(INPUT_CASES), 'input');
	const credentials = await runAll(pick(CREDENTIAL_CASES), 'credential');
	const triggers: CaseResult[] = [];
	for (const [index, triggerCase] of (pick(TRIGGER_CASES) as typeof TRIGGER_CASES).entries()) {
		const result = await runTriggerCase(triggerCase);
		triggers.push(result);
		process.stderr.write(`[matrix] trigger ${index + 1}/${TRIGGER_CASES.length} ${result.asExpected ? 'ok ' : 'NOT AS EXPECTED'} ${triggerCase.name}: ${result.outcome.slice(0, 100)}\n`);
	}
	const all = [...faults, ...inputs, ...credentials, ...triggers];
	const sum = totals(all);
	const summary = [
		`Cases: ${sum.cases} (${faults.length} faults, ${inputs.length} bad inputs, ${credentials.length} hostile Base URLs, request paths and headers, ${triggers.length} trigger faults); as expected: ${sum.asExpected} of ${sum.cases}.`,
		`Documents lost: ${sum.lost}. Documents duplicated: ${sum.duplicated}. Requests carrying the key to another host: ${sum.keyLeaks}. Runs showing the key (items, errors, run data, logs): ${sum.keyShown}.`,
		`Bad inputs and hostile credential uses refused before any request: ${sum.refusedLocally} of ${sum.refusedLocallyExpected}.`,
		`Run on ${new Date().toISOString().slice(0, 10)} in ${Math.round((Date.now() - started) / 1000)} s (Node ${process.version}).`,
	].join('\n');
	const body = [
		'### Faults',
		'',
		markdownTable(faults),
		'',
		'### Bad input',
		'',
		markdownTable(inputs),
		'',
		'### Hostile credential use (Base URL Override; request paths and headers through a node borrowing the credential)',
		'',
		markdownTable(credentials),
		'',
		'### Trigger',
		'',
		'Polls of the Document Extraction Trigger (Start From a date, static data carried from poll to poll as n8n keeps it). *Docs created*: the documents the trigger must emit; *Lost*: those it never emitted; *Duplicated*: items beyond one per document.',
		'',
		markdownTable(triggers),
		'',
		'### Totals',
		'',
		summary,
	].join('\n');
	process.stdout.write(`${body}\n`);
	if (option('write') !== undefined && !only && !group) {
		const doc = readFileSync(DOC, 'utf8');
		const begin = doc.indexOf(BEGIN);
		const end = doc.indexOf(END);
		if (begin < 0 || end < begin) throw new Error(`${DOC} has no ${BEGIN} … ${END} section`);
		writeFileSync(DOC, `${doc.slice(0, begin + BEGIN.length)}\n${body}\n${doc.slice(end)}`);
		process.stderr.write(`[matrix] wrote ${DOC}\n`);
	}
	const failed = sum.asExpected !== sum.cases || sum.lost > 0 || sum.duplicated > 0 || sum.keyLeaks > 0 || sum.keyShown > 0;
	process.exitCode = failed ? 1 : 0;
}

void main().then(
	() => process.exit(),
	(error: unknown) => {
		console.error(error);
		process.exit(2);
	},
);
