/**
 * Counterexamples the part-plan properties found (in the plan check as it was before issue 34, and
 * in their own generator since), kept as named cases (in process): each refused as an unexpected
 * part plan, never another error, or accepted where nothing the plan check reads is broken.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { planParts } from '../../nodes/DocumentExtraction/actions/file/upload/partPlan';

const context = { getNode: () => ({ id: 'n', name: 'Document Extraction', type: 'documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} }) } as unknown as IExecuteFunctions;
const url = 'https://storage.example.com/part';

function refusal(answer: IDataObject, fileSize: number, maxPartBytes: number): string {
	try {
		planParts(context, { id: 'mpu-1', key: 'k', ...answer }, fileSize, maxPartBytes, 0);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeApiError);
		return (error as Error).message;
	}
	throw new Error('the plan was accepted');
}

describe('Part plan: counterexamples found by the properties', () => {
	it('a part entry that is null is refused as an unexpected part plan (it was a TypeError)', () => {
		expect(refusal({ presignedUrls: [null] }, 1, 1)).toMatch(/unexpected part plan: a part is null, not a part record/);
	});

	it('a boundary moved by half a byte (part 1 is 2.5 bytes, part 2 starts at 2.5) is refused (it was accepted)', () => {
		const presignedUrls = [
			{ partNumber: 1, presignedUrl: url, startByte: 0, endByte: 1.5, size: 2.5 },
			{ partNumber: 2, presignedUrl: url, startByte: 2.5, endByte: 4, size: 2.5 },
		];
		expect(refusal({ presignedUrls }, 5, 3)).toMatch(/unexpected part plan: part 1's endByte is 1\.5, not a whole number of bytes/);
	});

	it('a part number given as text ("1") is refused, naming the value (it was refused as a shape, without saying why)', () => {
		expect(refusal({ partSize: 4, presignedUrls: [{ partNumber: '1', presignedUrl: url }] }, 4, 4)).toMatch(/part number "1" is not a whole number/);
	});

	it('an endByte of Infinity (JSON 1e400) is refused (it was read as no endByte)', () => {
		expect(refusal({ presignedUrls: [{ partNumber: 1, presignedUrl: url, startByte: 0, endByte: JSON.parse('1e400') as number, size: 4 }] }, 4, 4)).toMatch(/part 1's endByte is Infinity, not a whole number of bytes/);
	});

	it('a partSize given as text ("1") beside parts that give their byte ranges is not read, and the plan is accepted (npm run fuzz, seed 34: the generator called it broken)', () => {
		const presignedUrls = [{ partNumber: 1, presignedUrl: url, startByte: 0, endByte: 0, size: 1 }];
		const parts = planParts(context, { id: 'mpu-1', key: 'k', partSize: '1', presignedUrls }, 1, 1, 0);
		expect(parts.map(({ partNumber, start, size }) => ({ partNumber, start, size }))).toEqual([{ partNumber: 1, start: 0, size: 1 }]);
	});

	it('a partSize given as text is refused where a part gives no byte range (then it decides what is sent)', () => {
		expect(refusal({ partSize: '1', presignedUrls: [{ partNumber: 1, presignedUrl: url }] }, 1, 1)).toMatch(/unexpected part plan: its partSize is "1"/);
	});
});
