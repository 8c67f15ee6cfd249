/**
 * The Callback Trigger in the real n8n 2.41.1 (`npm run test:e2e`): the checks of
 * ./callback-trigger-suite.ts.
 */
import { describeCallbackTriggerInRealN8n } from './callback-trigger-suite';

describeCallbackTriggerInRealN8n();
