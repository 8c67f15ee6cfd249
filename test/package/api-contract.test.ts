/**
 * docs/dev/api-contract.md is the API's word inside the repository (issue 30, item 8): the
 * specification itself is not here, so the code cites the contract instead. This proves that the
 * contract and the code point at each other and at nothing else: every endpoint of the endpoint
 * table has its method and path in the contract; every choice of its last section says where in
 * the code it is kept (that each code location it names exists and holds the symbol named with it
 * is docs-dev.test.ts's check, for every page of docs/dev); every `docs/….md#anchor` a source file of nodes/, credentials/ or dev/ cites exists;
 * and no shipped source cites the specification without the contract.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { ENDPOINTS } from '../../nodes/shared/api';
import { ROOT, codeLocations, filesUnder, pointsAtHeading, prose } from './markdown';

const CONTRACT = 'docs/dev/api-contract.md';
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const contract = read(CONTRACT);

/** Source files whose comments may cite the docs. */
const SOURCES = ['nodes', 'credentials', 'dev'].flatMap((dir) => filesUnder(dir, ['.ts', '.cjs', '.mjs']));

/** `docs/….md` and `docs/….md#anchor` as written in a source file. */
function docLinks(text: string): string[] {
	return [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]+\.md(?:#[\w-]+)?)/g)].map((match) => match[1]);
}

/** The `###` sections of the contract's last section, "Where the specification is silent, and what we chose". */
function choices(): Array<{ title: string; body: string }> {
	const silent = prose(contract).split(/^## Where the specification is silent, and what we chose$/m)[1] ?? '';
	return silent
		.split(/^### /m)
		.slice(1)
		.map((section) => ({ title: section.split('\n', 1)[0], body: section.slice(section.indexOf('\n') + 1) }));
}

describe('docs/dev/api-contract.md and the code', () => {
	it.each(Object.entries(ENDPOINTS))('describes the endpoint %s with its method and path', (_name, endpoint) => {
		expect(contract).toContain(`\`${endpoint.method} ${endpoint.path}\``);
	});

	it('says of every choice where in the code it is kept', () => {
		const sections = choices();
		const unkept = sections.filter(({ body }) => !/Kept\s+in/.test(body) || codeLocations(body).length === 0).map(({ title }) => title);

		expect(sections.length).toBeGreaterThan(20);
		expect(unkept).toEqual([]);
	});
});

describe('source comments cite the contract, not the specification', () => {
	it('every docs/….md#anchor cited in nodes/, credentials/ or dev/ points at a file and a heading it has', () => {
		const cited = SOURCES.flatMap((file) => docLinks(read(file)).map((link) => ({ file, link })));
		const broken = cited.filter(({ link }) => {
			const [file, anchor] = link.split('#');
			return !pointsAtHeading(file, anchor);
		});

		expect(cited.filter(({ link }) => link.startsWith(`${CONTRACT}#`)).length).toBeGreaterThan(20);
		expect(broken).toEqual([]);
	});

	it('a shipped source file that mentions the specification also links the contract, and none names api-spec', () => {
		const shipped = SOURCES.filter((file) => !file.startsWith('dev'));
		const uncited = shipped.filter((file) => /specification/i.test(read(file)) && !read(file).includes(`${CONTRACT}#`));
		const naming = shipped.filter((file) => /api-spec|api-notes/i.test(read(file)));

		expect(uncited).toEqual([]);
		expect(naming).toEqual([]);
	});

	it('finds a broken anchor (the check can fail)', () => {
		expect(docLinks('// see docs/dev/api-contract.md#no-such-heading.')).toEqual(['docs/dev/api-contract.md#no-such-heading']);
		expect(pointsAtHeading(CONTRACT, 'no-such-heading')).toBe(false);
		expect(pointsAtHeading(CONTRACT, 'update-values-body')).toBe(true);
	});
});
