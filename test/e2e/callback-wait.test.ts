/**
 * Upload's Wait Mode "When the Service Calls Back" in the real n8n 2.41.1 (`npm run test:e2e`: the
 * smoke; `npm run test:callback`: every case): ./callback-wait-suite.ts.
 */
import { describeCallbackWaitInRealN8n } from './callback-wait-suite';

describeCallbackWaitInRealN8n();
