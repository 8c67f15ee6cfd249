/**
 * n8n 1.123.81's nodes panel, in chromium (`npm run test:e2e:n8n1`): the checks of
 * ../e2e/nodes-panel-suite.ts.
 */
import { describeNodesPanelInRealN8n } from '../e2e/nodes-panel-suite';

describeNodesPanelInRealN8n();
