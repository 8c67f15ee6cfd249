/**
 * The end-to-end suite (`npm run test:e2e`): the real n8n application (scripts/n8n-runtime.ts)
 * with this package installed as a community package, against the emulator. Suites run one
 * after another: each starts n8n processes of its own.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }],
  },
  globalSetup: '<rootDir>/test/e2e/global-setup.ts',
  maxWorkers: 1,
  testTimeout: 15 * 60 * 1000,
  verbose: true,
  reporters: ['default', '<rootDir>/test/e2e/summary-reporter.js'],
};
