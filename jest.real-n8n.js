/**
 * The shape every suite against the real n8n application shares (e2e, n8n 1.x smoke, queue mode,
 * registry install): TypeScript tests under one folder, n8n provisioned and the package built by
 * the e2e global setup, one suite at a time (each starts n8n processes of its own).
 * @param {string} folder the suite's folder under test/
 * @param {import('jest').Config} [overrides]
 * @returns {import('jest').Config}
 */
module.exports = function realN8nSuite(folder, overrides = {}) {
  return {
    testEnvironment: 'node',
    roots: [`<rootDir>/test/${folder}`],
    testMatch: ['**/*.test.ts'],
    transform: {
      '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    },
    globalSetup: '<rootDir>/test/e2e/global-setup.ts',
    maxWorkers: 1,
    testTimeout: 15 * 60 * 1000,
    verbose: true,
    ...overrides,
  };
};
