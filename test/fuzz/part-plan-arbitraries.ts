/**
 * Generated multipart initiation answers (POST /files/upload/multipart): a plan that tiles the
 * file as the service documents it, its byte ranges given in any of the documented ways (startByte,
 * endByte, size, or partSize alone) and listed in any order, then hostile mutations: fractions,
 * text, 2^53, Infinity, negative numbers, gaps, overlaps, missing, repeated or extra parts, counts
 * that disagree, URLs that are not text, entries that are not records, 10,001 parts.
 *
 * Each case says what must happen: `valid` plans (only harmless changes) must be accepted,
 * `broken` ones refused; `either` ones (null fields, swapped numbers, merged parts) may go both
 * ways, and when accepted must still tile the file exactly.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

export type Verdict = 'valid' | 'broken' | 'either';

export interface PlanCase {
	fileSize: number;
	/** The Part Size asked, in bytes. */
	maxPartBytes: number;
	answer: IDataObject;
	verdict: Verdict;
	/** What was done to the plan, for the counterexample's reader. */
	mutations: string[];
	/** The byte ranges of the plan before any mutation (what a valid plan must come out as). */
	ranges: Array<{ start: number; size: number }>;
}

/** Which of startByte, endByte and size a part lists (partSize at the top covers the rest). */
const FIELD_SETS = [['startByte', 'endByte', 'size'], ['startByte', 'endByte'], ['startByte', 'size'], ['size'], ['endByte'], ['startByte'], []] as const;

const MUTATIONS = [
	'fractional boundary',
	'fractional field',
	'numeric text',
	'past 2^53',
	'infinite',
	'negative',
	'gap',
	'overlap',
	'missing part',
	'repeated part',
	'extra part',
	'size and endByte disagree',
	'totalParts off by one',
	'totalSize off by one',
	'url not text',
	'entry not a record',
	'no part list',
	'null field',
	'swapped part numbers',
	'merged parts',
] as const;

type Mutation = (typeof MUTATIONS)[number];

const EITHER: readonly Mutation[] = ['null field', 'swapped part numbers', 'merged parts'];
const BREAKING: readonly Mutation[] = MUTATIONS.filter((kind) => !EITHER.includes(kind));

function mutation(kinds: fc.Arbitrary<Mutation>): fc.Arbitrary<Seeds['mutations'][number]> {
	// Fractions that stay fractions at any size below 2^53 (1e-9 would round away at 50 MB).
	return fc.record({ kind: kinds, at: fc.nat(), pick: fc.nat(), fraction: fc.constantFrom(0.5, 0.25, 0.001, 0.999) });
}

interface Seeds {
	fileSize: number;
	parts: number;
	slack: number;
	fieldSets: number[];
	withPartSize: boolean;
	withTotals: boolean;
	order: number[];
	mutations: ReadonlyArray<{ kind: Mutation; at: number; pick: number; fraction: number }>;
	manyParts: boolean;
}

const numericFields = ['startByte', 'endByte', 'size'] as const;

function entriesOf(answer: IDataObject): IDataObject[] {
	return answer.presignedUrls as IDataObject[];
}

/** Applies one mutation in place; `at` and `pick` choose the part and the field. */
function mutate(answer: IDataObject, fileSize: number, { kind, at, pick, fraction }: Seeds['mutations'][number]): void {
	const entries = entriesOf(answer);
	if (!Array.isArray(entries) || entries.length === 0) return;
	const index = at % entries.length;
	const entry = entries[index];
	const byNumber = (n: number) => entries.find((candidate) => candidate?.partNumber === n);
	const present = (record: IDataObject) => numericFields.filter((field) => typeof record[field] === 'number');
	// partSize is read only where a part lacks a byte range (partPlan.ts): elsewhere changing it breaks nothing.
	const partSizeRead = entries.some((candidate) => typeof candidate?.startByte !== 'number' || (typeof candidate?.endByte !== 'number' && typeof candidate?.size !== 'number'));
	const topLevel = ['partSize', 'totalParts', 'totalSize'].filter((field) => typeof answer[field] === 'number' && (field !== 'partSize' || partSizeRead));
	switch (kind) {
		case 'fractional boundary': {
			// Part n ends `fraction` later, part n + 1 starts as much later: the sizes still add up to the file.
			const left = byNumber((index % Math.max(1, entries.length - 1)) + 1);
			const right = left && byNumber(Number(left.partNumber) + 1);
			const target = right ?? left;
			if (!target) return;
			for (const record of right ? [left, right] : [target]) {
				if (typeof record?.startByte !== 'number') record.startByte = (Number(record.partNumber) - 1) * Number(answer.partSize ?? 0);
			}
			if (left && right) {
				if (typeof left.endByte === 'number') left.endByte += fraction;
				if (typeof left.size === 'number') left.size += fraction;
				right.startByte = Number(right.startByte) + fraction;
				if (typeof right.size === 'number') right.size -= fraction;
			} else target.startByte = Number(target.startByte) + fraction;
			return;
		}
		case 'fractional field':
		case 'numeric text':
		case 'past 2^53':
		case 'infinite':
		case 'negative':
		case 'null field': {
			const fields = [...present(entry).map((field) => [entry, field] as const), ...topLevel.map((field) => [answer, field] as const), [entry, 'partNumber'] as const];
			const [record, field] = fields[pick % fields.length];
			const value = Number(record[field]);
			record[field] =
				kind === 'fractional field' ? value + fraction
				: kind === 'numeric text' ? String(value)
				: kind === 'past 2^53' ? 2 ** 53 + 2
				: kind === 'infinite' ? Infinity
				: kind === 'negative' ? -1 - value
				: null;
			return;
		}
		case 'gap':
		case 'overlap': {
			const shift = kind === 'gap' ? 1 + (pick % 7) : -(1 + (pick % 7));
			const later = entries.filter((candidate) => Number(candidate.partNumber) > 1);
			if (later.length === 0) {
				entry.startByte = Math.max(1, shift);
				return;
			}
			const record = later[pick % later.length];
			const start = typeof record.startByte === 'number' ? record.startByte : (Number(record.partNumber) - 1) * Number(answer.partSize);
			record.startByte = start + shift;
			if (typeof record.endByte === 'number') record.endByte += shift;
			return;
		}
		case 'missing part':
			if (entries.length > 1) entries.splice(index, 1);
			else answer.presignedUrls = [];
			return;
		case 'repeated part':
			entries.splice(index, 0, { ...entry });
			return;
		case 'extra part':
			entries.push({ partNumber: entries.length + 1, presignedUrl: String(entry.presignedUrl), startByte: fileSize, endByte: fileSize + (pick % 5), size: 1 + (pick % 5) });
			return;
		case 'size and endByte disagree':
			entry.startByte ??= 0;
			if (typeof entry.endByte !== 'number') entry.endByte = Number(entry.startByte) + Number(entry.size ?? answer.partSize) - 1;
			entry.size = Number(entry.endByte) - Number(entry.startByte) + 1 + (pick % 2 ? 1 : -1);
			return;
		case 'totalParts off by one':
			answer.totalParts = entries.length + (pick % 2 ? 1 : -1);
			return;
		case 'totalSize off by one':
			answer.totalSize = fileSize + (pick % 2 ? 1 : -1);
			return;
		case 'url not text':
			entry.presignedUrl = pick % 2 ? { url: String(entry.presignedUrl) } : null;
			return;
		case 'entry not a record':
			entries[index] = (['text', null, 7, [entry]] as const)[pick % 4] as unknown as IDataObject;
			return;
		case 'no part list':
			answer.presignedUrls = (['none', null, {}, 3] as const)[pick % 4] as unknown as IDataObject[];
			return;
		case 'swapped part numbers': {
			const other = entries[(index + 1 + pick) % entries.length];
			[entry.partNumber, other.partNumber] = [other.partNumber, entry.partNumber];
			return;
		}
		case 'merged parts': {
			const next = byNumber(Number(entry.partNumber) + 1);
			if (!next) return;
			entries.splice(entries.indexOf(next), 1);
			for (const record of entries) if (Number(record.partNumber) > Number(next.partNumber)) record.partNumber = Number(record.partNumber) - 1;
			const start = (Number(entry.partNumber) - 1) * Number(answer.partSize);
			const end = typeof next.endByte === 'number' ? next.endByte : Math.min(fileSize, start + 2 * Number(answer.partSize)) - 1;
			Object.assign(entry, { startByte: start, endByte: end, size: end - start + 1 });
			if (typeof answer.totalParts === 'number') answer.totalParts = entries.length;
			return;
		}
	}
}

/** A plan case for a file of `fileSizes` bytes, at most `maxParts` parts before mutations. */
export function planCase(fileSizes: fc.Arbitrary<number>, maxParts = 40, url = 'https://storage.example.com/part'): fc.Arbitrary<PlanCase> {
	const seeds: fc.Arbitrary<Seeds> = fc.record({
		fileSize: fileSizes,
		parts: fc.integer({ min: 1, max: maxParts }),
		slack: fc.integer({ min: 0, max: 3 }),
		fieldSets: fc.array(fc.integer({ min: 0, max: FIELD_SETS.length - 1 }), { minLength: 1, maxLength: 8 }),
		withPartSize: fc.boolean(),
		withTotals: fc.boolean(),
		order: fc.array(fc.nat(), { maxLength: 8 }),
		// At most one harmless-or-not change, then at most one that breaks the plan (two breaking
		// ones could undo each other: a gap and an overlap of the same size).
		mutations: fc.oneof(
			{ weight: 2, arbitrary: fc.constant([]) },
			{ weight: 4, arbitrary: fc.tuple(mutation(fc.constantFrom(...BREAKING))) },
			{ weight: 2, arbitrary: fc.tuple(mutation(fc.constantFrom(...EITHER))) },
			{ weight: 2, arbitrary: fc.tuple(mutation(fc.constantFrom(...EITHER)), mutation(fc.constantFrom(...BREAKING))) },
		),
		manyParts: fc.integer({ min: 0, max: 99 }).map((n) => n === 0),
	});
	return seeds.map((seed) => {
		const fileSize = seed.manyParts ? 10_001 : seed.fileSize;
		const partSize = seed.manyParts ? 1 : Math.ceil(fileSize / seed.parts);
		// The Part Size asked is the service's part size, or a little more (the service may round down).
		const maxPartBytes = partSize + (seed.slack === 3 ? partSize : seed.slack);
		const count = Math.ceil(fileSize / partSize);
		const ranges = Array.from({ length: count }, (_, index) => ({ start: index * partSize, size: Math.min(partSize, fileSize - index * partSize) }));
		// Without partSize every part must say where it starts and how long it is.
		const withPartSize = seed.withPartSize || seed.manyParts;
		const entries: IDataObject[] = ranges.map(({ start, size }, index) => {
			const fields = withPartSize ? FIELD_SETS[seed.fieldSets[index % seed.fieldSets.length]] : FIELD_SETS[[0, 1, 2][seed.fieldSets[index % seed.fieldSets.length] % 3]];
			const entry: IDataObject = { partNumber: index + 1, presignedUrl: `${url}?partNumber=${index + 1}` };
			if (fields.includes('startByte' as never)) entry.startByte = start;
			if (fields.includes('endByte' as never)) entry.endByte = start + size - 1;
			if (fields.includes('size' as never)) entry.size = size;
			return entry;
		});
		// Listed in another order: harmless, the node sorts by part number.
		for (const [index, swap] of seed.order.entries()) {
			const from = index % entries.length;
			const to = swap % entries.length;
			[entries[from], entries[to]] = [entries[to], entries[from]];
		}
		const answer: IDataObject = { id: 'mpu-1', key: 'uploads/file', uploadId: 'upload-1', presignedUrls: entries };
		if (withPartSize) answer.partSize = partSize;
		if (seed.withTotals) Object.assign(answer, { totalParts: count, totalSize: fileSize });
		// 10,001 parts are refused as they are: a merge could bring them to 10,000.
		const applied = seed.manyParts ? [] : seed.mutations;
		const mutations = applied.map((chosen) => chosen.kind);
		for (const chosen of applied) mutate(answer, fileSize, chosen);
		// A breaking change alone must be refused; after another change it may happen to fit again
		// (a gap of 3 bytes after a swap that moved 3 bytes), so it only has to be sound.
		const breaksAlone = mutations.length === 1 && BREAKING.includes(mutations[0]);
		const verdict: Verdict = seed.manyParts || breaksAlone ? 'broken' : mutations.length > 0 ? 'either' : 'valid';
		return { fileSize, maxPartBytes, answer, verdict, mutations: seed.manyParts ? ['10,001 parts', ...mutations] : mutations, ranges };
	});
}
