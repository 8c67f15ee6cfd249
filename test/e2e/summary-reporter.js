/** Prints one closing line for the end-to-end run, e.g. "e2e: 10 passed, 0 failed". */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const suitesFailedToRun = results.numRuntimeErrorTestSuites;
		process.stdout.write(
			`\ne2e: ${results.numPassedTests} passed, ${results.numFailedTests + suitesFailedToRun} failed` +
				(skipped ? `, ${skipped} skipped` : '') +
				'\n',
		);
	}
}
module.exports = SummaryReporter;
