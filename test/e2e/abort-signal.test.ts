/**
 * The abortSignal pin of the request path in the real n8n 2.41.1 (`npm run test:e2e`): the canary
 * and the behaviour checks of ./abort-signal-suite.ts.
 */
import { describeAbortSignalInRealN8n } from './abort-signal-suite';

describeAbortSignalInRealN8n();
