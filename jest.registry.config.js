const realN8nSuite = require('./jest.real-n8n');

/**
 * `npm run test:registry`: test/registry, the package installed as users install it: published to
 * a local npm registry (verdaccio) and installed, updated and uninstalled through n8n 2.41.1's
 * Community Nodes API (community-install.test.ts), and the tarball of `npm run pack` installed
 * with npm into n8n's nodes folder (tarball-install.test.ts). The global setup provisions n8n and
 * builds the package, as for the e2e suite.
 * @type {import('jest').Config}
 */
module.exports = realN8nSuite('registry', { testTimeout: 10 * 60 * 1000 });
