/**
 * The service's multipart part plan is made of byte counts: every size, offset, part number and
 * count it hands back must be a whole number (a safe integer), or the plan is an unexpected answer,
 * refused before any byte is sent (issue 34, finding 10). Through the n8n engine against the
 * emulator, whose part-plan fault answers the initiation with the plan given.
 */
import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { createBinaryItem, runNode } from '../../dev/harness';
import { credentialsFor, requestsTo, useEmulator } from './support';

const MIB = 1024 * 1024;
const FILE_BYTES = 40 * MIB;

const emulator = useEmulator();

/** Uploads a 40 MiB file in 5 MiB parts (multipart always) and says what happened. */
async function uploadInParts() {
	const input = await createBinaryItem({ buffer: randomBytes(FILE_BYTES), fileName: 'plan.bin', mimeType: 'application/octet-stream', mode: 'filesystem' });
	return await runNode({
		type: 'documentExtraction',
		parameters: { resource: 'file', operation: 'upload', waitForCompletion: false, options: { multipart: 'always', partSize: 5 } },
		credentials: credentialsFor(emulator),
		inputItems: [input],
		binaryDataMode: 'filesystem',
	});
}

/** Nothing was sent to storage and no upload was completed. */
function expectNothingSent(): void {
	expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(0);
	expect(requestsTo(emulator, 'api', 'POST', /\/multipart\/complete$/)).toHaveLength(0);
}

/** The initiation's answer with its parts replaced by what `edit` makes of them. */
function editPlan(edit: (parts: IDataObject[], answer: IDataObject) => void): void {
	emulator.faults.editAnswerNext({
		method: 'POST',
		path: '/files/upload/multipart',
		edit: (body) => {
			const answer = body as IDataObject;
			edit(answer.presignedUrls as IDataObject[], answer);
			return answer;
		},
	});
}

describe('A multipart part plan with a byte count that is not a whole number is refused before any part is sent', () => {
	it('fractional part sizes and offsets that add up to the file (4 MiB, 4 MiB + 0.5, 4 MiB - 0.5, …): refused, nothing PUT', async () => {
		const sizes = [4 * MIB, 4 * MIB + 0.5, 4 * MIB - 0.5, ...Array.from({ length: 7 }, () => 4 * MIB)];
		expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(FILE_BYTES);
		emulator.faults.partPlanNext({ method: 'POST', path: '/files/upload/multipart', sizes });

		const { error } = await uploadInParts();

		expect(error?.message).toMatch(/unexpected part plan/);
		expect(error?.message).toMatch(/part 2's endByte is 8388607\.5, not a whole number of bytes/);
		expectNothingSent();
	});

	it('a fractional partSize when the parts give no byte ranges: refused, nothing PUT', async () => {
		editPlan((parts, answer) => {
			// 10 parts of 4 MiB + 0.5 would cover 40 MiB + 5 bytes; 4194303.5 x 10 = 40 MiB - 5.
			answer.partSize = 4 * MIB - 0.5;
			answer.presignedUrls = Array.from({ length: 10 }, (_, index) => ({ partNumber: index + 1, presignedUrl: parts[0].presignedUrl }));
			answer.totalParts = 10;
		});

		const { error } = await uploadInParts();

		expect(error?.message).toMatch(/unexpected part plan: its partSize is 4194303\.5, not a whole number of bytes/);
		expectNothingSent();
	});

	it.each<[string, (parts: IDataObject[], answer: IDataObject) => void, RegExp]>([
		['a fractional part number', (parts) => { parts[1].partNumber = 2.5; }, /part number 2\.5 is not a whole number/],
		['a part number given as text', (parts) => { parts[1].partNumber = '2'; }, /part number "2" is not a whole number/],
		['an offset past the largest safe integer', (parts) => { parts[0].startByte = 2 ** 53; }, /part 1's startByte is 9007199254740992, too large to be counted exactly/],
		['endByte and size that disagree', (parts) => { parts[0].size = Number(parts[0].size) - 1; }, /part 1's size \(5242879\) is not endByte - startByte \+ 1 \(5242880\)/],
		['a totalParts that is not the number of parts', (_parts, answer) => { answer.totalParts = 9; }, /its totalParts is 9, but it lists 8 parts/],
		['a fractional totalParts', (_parts, answer) => { answer.totalParts = 8.5; }, /its totalParts is 8\.5, not a whole number\. It was refused/],
	])('%s: refused, nothing PUT', async (_name, edit, expected) => {
		editPlan(edit);

		const { error } = await uploadInParts();

		expect(error?.message).toMatch(/unexpected part plan/);
		expect(error?.message).toMatch(expected);
		expectNothingSent();
	});

	it('a totalSize of another file, in bytes or in MB: refused, nothing PUT', async () => {
		editPlan((_parts, answer) => {
			answer.totalSize = FILE_BYTES + 1;
		});
		const { error } = await uploadInParts();
		expect(error?.message).toMatch(/its totalSize is 41943041, but the file has 41943040 bytes \(40\.00 MB\)/);
		expectNothingSent();

		editPlan((_parts, answer) => {
			answer.totalSize = 40.5;
		});
		const second = await uploadInParts();
		expect(second.error?.message).toMatch(/its totalSize is 40\.5, but the file has 41943040 bytes/);
	});

	it('a totalSize and partSize given in MB, as the request sends fileSize (their unit is not documented), beside whole byte ranges: accepted', async () => {
		editPlan((_parts, answer) => {
			answer.totalSize = 40;
			answer.partSize = 5.0000001;
		});

		const { error, items } = await uploadInParts();

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ totalParts: 8 });
		expect(requestsTo(emulator, 'storage', 'PUT')).toHaveLength(8);
	});

	it('the same file with the emulator\'s own plan goes through in 8 whole parts (the cases above differ only by the fault)', async () => {
		const { error, items } = await uploadInParts();

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ totalParts: 8 });
		const puts = requestsTo(emulator, 'storage', 'PUT');
		expect(puts.map((put) => put.bodyBytes)).toEqual([...Array.from({ length: 7 }, () => 5 * MIB), 5 * MIB]);
	});
});
