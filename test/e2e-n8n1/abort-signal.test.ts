/**
 * The abortSignal pin of the request path in the real n8n 1.123.81 on Node 22
 * (`npm run test:e2e:n8n1`): the canary and the behaviour checks of ../e2e/abort-signal-suite.ts.
 */
import { describeAbortSignalInRealN8n } from '../e2e/abort-signal-suite';

describeAbortSignalInRealN8n();
