/**
 * The queue-mode suite (`npm run test:queue`; smoke: `npm run test:queue:smoke`): n8n main + 2
 * workers with PostgreSQL 17 and Redis (scripts/queue/), the package and the emulator. Suites
 * run one after another: each starts its own stack.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/queue'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }],
  },
  globalSetup: '<rootDir>/test/e2e/global-setup.ts',
  maxWorkers: 1,
  testTimeout: 15 * 60 * 1000,
  verbose: true,
};
