/**
 * n8n 2.41.1: the credential dialog's words after "Test", for each failure a user meets
 * (test/e2e/credential-dialog-cases.ts; the same cases run on n8n 1.123.81 in test/e2e-n8n1).
 */
import { credentialDialogCases } from './credential-dialog-cases';

describe(`the credential test in n8n ${process.env.N8N_E2E_VERSION || '2.41.1'} (POST /rest/credentials/test)`, () => {
	credentialDialogCases();
});
