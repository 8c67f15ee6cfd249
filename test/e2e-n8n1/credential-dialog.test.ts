/**
 * n8n 1.123.81: the credential dialog says the same words as on 2.41.1 (the node's own credential
 * test runs on both), for each failure a user meets (test/e2e/credential-dialog-cases.ts).
 */
import { credentialDialogCases } from '../e2e/credential-dialog-cases';

describe(`the credential test in n8n ${process.env.N8N_E2E_VERSION} (POST /rest/credentials/test)`, () => {
	credentialDialogCases();
});
