/**
 * The credential cases of the reliability matrix: every hostile Base URL of the URL policy's table,
 * and requests a user who may use but not read the credential could send with it through a node
 * that borrows it as n8n's HTTP Request node does: paths that leave the Base URL's prefix to a
 * proxy's reading, and headers that reroute or rewrite the request at a proxy (docs/security.md).
 */
import { HOSTILE_BASE_URLS, PATH_TRAVERSAL_REQUEST_PATHS, ROUTING_HEADER_CASES } from '../../dev/hostile-urls';
import type { MatrixCase } from './matrix';

const BASE_URL_CASES: MatrixCase[] = HOSTILE_BASE_URLS.map(([baseUrl]) => ({
	group: 'credential',
	name: `Base URL Override ${JSON.stringify(baseUrl)}`,
	operation: 'workspace.getSubscription',
	expect: 'refused before any request',
	credentials: { baseUrl },
}));

/** Under the Base URL <emulator>/dex; the paths of the fixture are written below https://gw.example.com. */
const PATH_CASES: MatrixCase[] = PATH_TRAVERSAL_REQUEST_PATHS.map(([path], index) => ({
	group: 'credential',
	name: `Request path ${JSON.stringify(path)} under the Base URL prefix /dex`,
	operation: `borrowed credential (${index % 2 === 0 ? 'legacy' : 'current'} helper)`,
	expect: 'refused before any request',
	borrow: {
		helper: index % 2 === 0 ? 'legacy' : 'current',
		baseUrlPath: '/dex',
		request: (apiUrl) => (index % 2 === 0 ? { method: 'GET', uri: `${apiUrl}${path}`, json: true } : { method: 'GET', url: `${apiUrl}${path}`, json: true }),
	},
}));

const HEADER_CASES: MatrixCase[] = ROUTING_HEADER_CASES.map((header, index) => ({
	group: 'credential',
	name: `Header ${JSON.stringify(header)}`,
	operation: `borrowed credential (${index % 2 === 0 ? 'legacy' : 'current'} helper)`,
	expect: 'refused before any request',
	borrow: {
		helper: index % 2 === 0 ? 'legacy' : 'current',
		request: (apiUrl) => {
			const target = `${apiUrl}/prod/v1/subscription`;
			const headers = { [header]: 'evil.example' };
			return index % 2 === 0 ? { method: 'GET', uri: target, headers, json: true } : { method: 'GET', url: target, headers, json: true };
		},
	},
}));

export const CREDENTIAL_CASES: MatrixCase[] = [...BASE_URL_CASES, ...PATH_CASES, ...HEADER_CASES];
