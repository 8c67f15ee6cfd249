/**
 * The layer rules of the repository's imports, one rule a line. `npm run check:imports`
 * (scripts/import-graph.ts) and test/package/import-graph.test.ts both read this table;
 * docs/dev/architecture.md lists the rules by name.
 *
 * - `from`: the files the rule is about; `forbidden`: what they must not import. Both are lists of
 *   globs over repository paths (`**` any folders, `*` any name in one folder); a glob starting
 *   with `!` takes files out again (`['**', '!test/**']`: every file not under test/). The root's
 *   config files (jest, eslint, gulp, index.js) are files like any other: `**` matches them.
 *   `forbidden: CIRCLE`: no import chain between `from` files may lead back to where it started.
 * - `offending`: an import chain the rule must refuse (each file imports the next); the test runs
 *   the rule on that chain alone, so a rule whose globs match nothing fails there.
 *
 * Imports are what scripts/import-graph.ts reads: `import`/`export from`, `require()`, `import()`
 * and `join(__dirname, '…')`. A jest config naming `<rootDir>/test/…` as its roots, setup or
 * reporter tells jest where the tests are; it imports nothing.
 */

export const CIRCLE = 'an import chain back to the importer';

export interface ImportRule {
	readonly name: string;
	readonly from: readonly string[];
	readonly forbidden: readonly string[] | typeof CIRCLE;
	readonly why: string;
	readonly offending: readonly string[];
}

/** The ground floor of nodes/shared/: plain data and helpers that import nothing of ours but credentials/ and each other. */
const GROUND_FLOOR = [
	'nodes/shared/limits/**',
	'nodes/shared/run/**',
	'nodes/shared/ids.ts',
	'nodes/shared/uniqueNames.ts',
	'nodes/shared/text.ts',
	'nodes/shared/versions.ts',
	'nodes/shared/concurrency.ts',
	'nodes/shared/uploadStatus.ts',
];

export const IMPORT_RULES: readonly ImportRule[] = [
	{ name: 'no import circles', from: ['**'], forbidden: CIRCLE, why: 'a circle has no bottom: no file of it can be read, loaded or tested before the others', offending: ['nodes/shared/a.ts', 'nodes/shared/b.ts', 'nodes/shared/a.ts'] },
	{ name: 'credentials/ imports nothing from nodes/', from: ['credentials/**'], forbidden: ['nodes/**'], why: 'the credential is the floor every node stands on (hosts, URL policy, the key)', offending: ['credentials/hosts.ts', 'nodes/shared/lists.ts'] },
	{ name: 'nothing outside test/ imports test/', from: ['**', '!test/**'], forbidden: ['test/**'], why: 'test/ holds tests and the fixtures only tests use; what bench/, scripts/ and dev/ share lives in dev/', offending: ['bench/table.ts', 'test/node/support.ts'] },
	{ name: 'nodes/ and credentials/ import nothing from dev/, test/, bench/, scripts/', from: ['nodes/**', 'credentials/**'], forbidden: ['dev/**', 'test/**', 'bench/**', 'scripts/**'], why: 'only nodes/ and credentials/ are built into the published package', offending: ['nodes/shared/lists.ts', 'dev/documents.ts'] },
	{ name: 'the trigger imports nothing from the action node', from: ['nodes/DocumentExtractionTrigger/**'], forbidden: ['nodes/DocumentExtraction/**'], why: 'the trigger and the action node share only what stands in nodes/shared/ (the API layer, the request path, parameters, output)', offending: ['nodes/DocumentExtractionTrigger/poll.ts', 'nodes/DocumentExtraction/actions/router.ts'] },
	{ name: 'the action node imports nothing from the trigger', from: ['nodes/DocumentExtraction/**'], forbidden: ['nodes/DocumentExtractionTrigger/**'], why: 'the action node and the trigger share only what stands in nodes/shared/', offending: ['nodes/DocumentExtraction/actions/router.ts', 'nodes/DocumentExtractionTrigger/poll.ts'] },
	{ name: 'the Callback Trigger imports nothing from the other nodes', from: ['nodes/DocumentExtractionCallbackTrigger/**'], forbidden: ['nodes/DocumentExtraction/**', 'nodes/DocumentExtractionTrigger/**'], why: 'it shares with them only what stands in nodes/shared/ (the API layer, the upload status reader, the document item)', offending: ['nodes/DocumentExtractionCallbackTrigger/webhook.ts', 'nodes/DocumentExtractionTrigger/poll.ts'] },
	{ name: 'the other nodes import nothing from the Callback Trigger', from: ['nodes/DocumentExtraction/**', 'nodes/DocumentExtractionTrigger/**'], forbidden: ['nodes/DocumentExtractionCallbackTrigger/**'], why: 'what they share with it stands in nodes/shared/', offending: ['nodes/DocumentExtractionTrigger/poll.ts', 'nodes/DocumentExtractionCallbackTrigger/check.ts'] },
	{ name: 'nodes/shared imports nothing from any node', from: ['nodes/shared/**'], forbidden: ['nodes/DocumentExtraction/**', 'nodes/DocumentExtractionTrigger/**', 'nodes/DocumentExtractionCallbackTrigger/**'], why: 'what the nodes share sits below them all', offending: ['nodes/shared/lists.ts', 'nodes/DocumentExtraction/actions/router.ts'] },
	{ name: 'only the API layer calls the request path', from: ['nodes/**', '!nodes/shared/api/**', '!nodes/shared/transport/**', '!nodes/shared/nodeError.ts'], forbidden: ['nodes/shared/transport/**'], why: 'an operation, the trigger or an editor method talks to one layer, which hands every call its request policy (nodeError.ts only borrows the redaction of a failure)', offending: ['nodes/DocumentExtraction/actions/file/getValues.operation.ts', 'nodes/shared/transport/index.ts'] },
	{ name: 'the request path reads no parameter', from: ['nodes/shared/transport/**', 'nodes/shared/api/**'], forbidden: ['nodes/shared/parameters/**', 'nodes/shared/requestPolicy.ts', 'nodes/shared/requestOptions.ts'], why: 'options are read once where a run starts (requestPolicy.ts) and handed down as a policy', offending: ['nodes/shared/transport/api.ts', 'nodes/shared/requestPolicy.ts'] },
	{ name: 'the run scope stands on nothing of ours', from: ['nodes/shared/run/**'], forbidden: ['nodes/**', 'credentials/**', '!nodes/shared/run/**'], why: 'the run scope, budgets, stopping and the wait clock sit below the request path and everything else', offending: ['nodes/shared/run/scope.ts', 'nodes/shared/limits/index.ts'] },
	{ name: 'the callback verifier resumes nothing and emits nothing', from: ['nodes/shared/callbacks/**'], forbidden: ['nodes/shared/output/**', 'nodes/shared/parameters/**', 'nodes/shared/requestPolicy.ts', 'nodes/shared/requestOptions.ts'], why: 'it decides whether a callback is true and handled, and how it is answered; reading the node\'s parameters, building items, resuming and emitting stay with the node that owns them', offending: ['nodes/shared/callbacks/memory.ts', 'nodes/shared/output/documentItem.ts'] },
	{ name: 'limits/ is plain data', from: ['nodes/shared/limits/**'], forbidden: ['**', '!nodes/shared/limits/**'], why: 'the one table of bounds and defaults reads nothing and decides nothing', offending: ['nodes/shared/limits/triggers.ts', 'nodes/shared/run/context.ts'] },
	{ name: 'the paging guard is pure', from: ['nodes/shared/paging/**'], forbidden: ['nodes/shared/api/**', 'nodes/shared/transport/**', 'nodes/shared/run/**', 'nodes/shared/parameters/**'], why: 'it decides from the pages it is shown alone, so property tests drive it without n8n or HTTP', offending: ['nodes/shared/paging/guard.ts', 'nodes/shared/transport/api.ts'] },
	{ name: 'parameters stand low', from: ['nodes/shared/parameters/**'], forbidden: ['nodes/**', '!nodes/shared/parameters/**', '!nodes/shared/run/context.ts', '!nodes/shared/ids.ts', '!nodes/shared/limits/**'], why: 'every layer may check a parameter through it without an import circle', offending: ['nodes/shared/parameters/numbers.ts', 'nodes/shared/transport/index.ts'] },
	{ name: 'the ground floor of nodes/shared/ stands on credentials/ alone', from: GROUND_FLOOR, forbidden: ['nodes/**', ...GROUND_FLOOR.map((glob) => `!${glob}`)], why: 'the bounds, the run scope, ID forms, names and plain text helpers are what every floor above may use without a circle', offending: ['nodes/shared/ids.ts', 'nodes/shared/api/index.ts'] },
	{ name: 'schema/ stands below output/', from: ['nodes/shared/schema/**'], forbidden: ['nodes/shared/output/**'], why: 'an item is shaped (output/) from fields typed by their schema, never the other way round', offending: ['nodes/shared/schema/fields.ts', 'nodes/shared/output/simplify.ts'] },
	{ name: 'dev/ imports only dev/', from: ['dev/**'], forbidden: ['**', '!dev/**'], why: 'npm start, the emulator and the harness run without the tests, benchmarks, tools or package sources', offending: ['dev/start.ts', 'scripts/pack.ts'] },
];
