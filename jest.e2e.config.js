const realN8nSuite = require('./jest.real-n8n');

/**
 * The end-to-end suite (`npm run test:e2e`): the real n8n application (dev/n8n/n8n-runtime.ts)
 * with this package installed as a community package, against the emulator. Suites run one
 * after another: each starts n8n processes of its own.
 * @type {import('jest').Config}
 */
module.exports = realN8nSuite('e2e', {
  reporters: ['default', '<rootDir>/test/e2e/summary-reporter.js'],
  // examples-end.test.ts loads n8n's Wait node in process; see the stub for why.
  moduleNameMapper: { '^sanitize-html$': '<rootDir>/test/e2e/sanitize-html-stub.ts' },
});
