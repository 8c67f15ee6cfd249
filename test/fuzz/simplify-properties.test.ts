/**
 * Simplify, property-based: any form record the service may send (deep, wide, huge strings, odd
 * keys, not a form at all) is made into an item that keeps the invariants of
 * simplify-invariants.ts: it never throws, is bounded, drops nothing without a note, keeps the key
 * order and costs linear work. In process (nodes/shared/output), fixed seed; FUZZ_RUNS for long runs.
 */
import fc from 'fast-check';

import type { SimplifyMeter } from '../../nodes/shared/output/simplify';
import { simplifyFormValue } from '../../nodes/shared/output/simplify';
import { fuzzParameters, fuzzTimeout } from './runs';
import { formRecord, veryDeepForm } from './simplify-arbitraries';
import { checkSimplified, numberTags } from './simplify-invariants';

const RUNS = 300;
const DEEP_RUNS = 20;

describe('Simplify on generated form records (property)', () => {
	it(
		'never throws; bounded output; every value shown or reported; key order kept; linear work',
		() => {
			fc.assert(
				fc.property(formRecord(), (generated) => {
					const form = numberTags(generated);
					const meter: SimplifyMeter = { steps: 0 };
					const output = simplifyFormValue(form, meter);
					checkSimplified(form, output, meter.steps);
				}),
				fuzzParameters(RUNS),
			);
		},
		fuzzTimeout(RUNS, 100),
	);

	it(
		'a field nested 3,000 to 50,000 levels (lists, objects, tables, items, { fields } rows, a title): the same invariants',
		() => {
			fc.assert(
				fc.property(veryDeepForm, (generated) => {
					const form = numberTags(generated);
					const meter: SimplifyMeter = { steps: 0 };
					checkSimplified(form, simplifyFormValue(form, meter), meter.steps);
				}),
				fuzzParameters(DEEP_RUNS, 0.02),
			);
		},
		fuzzTimeout(DEEP_RUNS, 300, 0.02),
	);
});
