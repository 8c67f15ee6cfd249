/** The credential cases of the reliability matrix: every hostile Base URL of the URL policy's table. */
import { HOSTILE_BASE_URLS } from '../../dev/hostile-urls';
import type { MatrixCase } from './matrix';

export const CREDENTIAL_CASES: MatrixCase[] = HOSTILE_BASE_URLS.map(([baseUrl]) => ({
	group: 'credential',
	name: `Base URL Override ${JSON.stringify(baseUrl)}`,
	operation: 'workspace.getSubscription',
	expect: 'refused before any request',
	credentials: { baseUrl },
}));
