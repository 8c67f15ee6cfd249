const realN8nSuite = require('./jest.real-n8n');

/**
 * The n8n 1.x smoke (`npm run test:e2e:n8n1`): test/e2e-n8n1 in the real n8n 1.123.81 on Node 22
 * (N8N_E2E_VERSION picks another of dev/n8n/n8n-runtime.ts's N8N_VERSIONS).
 * @type {import('jest').Config}
 */
process.env.N8N_E2E_VERSION ||= '1.123.81';

module.exports = realN8nSuite('e2e-n8n1');
