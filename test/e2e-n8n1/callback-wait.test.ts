/**
 * Upload's Wait Mode "When the Service Calls Back" in the real n8n 1.123.81 on Node 22
 * (`npm run test:e2e:n8n1`: the smoke; `npm run test:callback`: every case): ../e2e/callback-wait-suite.ts.
 */
import { describeCallbackWaitInRealN8n } from '../e2e/callback-wait-suite';

describeCallbackWaitInRealN8n();
