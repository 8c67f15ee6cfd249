const realN8nSuite = require('./jest.real-n8n');

/**
 * `npm run test:registry`: test/registry, the package published to a local npm registry
 * (verdaccio) and installed, updated and uninstalled through n8n 2.41.1's Community Nodes API.
 * The global setup provisions n8n and builds the package, as for the e2e suite.
 * @type {import('jest').Config}
 */
module.exports = realN8nSuite('registry', { testTimeout: 10 * 60 * 1000 });
