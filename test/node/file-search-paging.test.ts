/**
 * The editor's file search (File locator, From List) pages through the paging guard: a page of a
 * call that brings no file not listed before (a service that ignores `page`) ends the list there,
 * with what was found, each file once, instead of reading up to 10 pages of the same files and
 * offering a token to read them again.
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { listSearch } from '../../dev/harness';
import { credentialsFor, useEmulator } from './support';

const emulator = useEmulator({}, 'test');

async function search(filter?: string, paginationToken?: string) {
	return await listSearch({ type: 'documentExtraction', method: 'searchFiles', filter, paginationToken, credentials: credentialsFor(emulator) });
}

function fileListRequests() {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'GET' && entry.path.endsWith('/files'));
}

beforeEach(() => {
	addFiles(emulator.state, 300, {
		createdAtMs: (index) => Date.parse('2026-01-01T00:00:00Z') + index * 1000,
		fileName: (index) => `bulk-${index}.pdf`,
	});
});

it('a service that ignores page: the search ends at the repeated page, each match once, without a token', async () => {
	emulator.faults.ignorePageNext({ method: 'GET', path: '/files', count: 100 });

	const found = await search('bulk-25');

	// The newest page holds bulk-299 … bulk-200: ten matches (bulk-250 … bulk-259).
	expect(found.results.map((result) => result.name.split(' ')[0])).toEqual(Array.from({ length: 10 }, (_, index) => `bulk-${259 - index}.pdf`));
	expect(found.paginationToken).toBeUndefined();
	expect(fileListRequests()).toHaveLength(2);
});

it('a search over a service that pages reads on to the matches further back, each once', async () => {
	const found = await search('bulk-25');

	expect(found.results.map((result) => result.name.split(' ')[0])).toEqual([
		...Array.from({ length: 10 }, (_, index) => `bulk-${259 - index}.pdf`),
		'bulk-25.pdf',
	]);
	expect(found.paginationToken).toBeUndefined();
	expect(fileListRequests()).toHaveLength(3);
});
