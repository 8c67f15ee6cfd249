/**
 * The Callback Trigger in the real n8n 1.123.81 on Node 22 (`npm run test:e2e:n8n1`): the checks
 * of ../e2e/callback-trigger-suite.ts.
 */
import { describeCallbackTriggerInRealN8n } from '../e2e/callback-trigger-suite';

describeCallbackTriggerInRealN8n();
