/**
 * n8n 2.41.1's nodes panel, in chromium (`npm run test:e2e`): the checks of ./nodes-panel-suite.ts.
 */
import { describeNodesPanelInRealN8n } from './nodes-panel-suite';

describeNodesPanelInRealN8n();
