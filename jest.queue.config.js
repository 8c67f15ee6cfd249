const realN8nSuite = require('./jest.real-n8n');

/**
 * The queue-mode suite (`npm run test:queue`; smoke: `npm run test:queue:smoke`): n8n main + 2
 * workers with PostgreSQL 17 and Redis (dev/n8n/queue/), the package and the emulator. Suites
 * run one after another: each starts its own stack.
 * @type {import('jest').Config}
 */
module.exports = realN8nSuite('queue');
