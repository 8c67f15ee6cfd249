/**
 * What an accepted multipart plan must be, judged from the parts planParts returned and the
 * answer they came from: parts numbered 1 to N in order, whole byte counts, starting at 0, each
 * where the one before ended, the last ending at the file's last byte, none empty or larger than
 * the Part Size asked, at most 10,000; each part's URL, start, end and size those the answer gave
 * for its number; totalParts and totalSize, when given, those of the plan.
 */
import type { IDataObject } from 'n8n-workflow';

import type { PlannedPart } from '../../nodes/DocumentExtraction/actions/file/upload/partPlan';

export interface TilingCase {
	fileSize: number;
	maxPartBytes: number;
	answer: IDataObject;
}

export function checkTiling(parts: PlannedPart[], plan: TilingCase): void {
	const entries = plan.answer.presignedUrls as IDataObject[];
	expect(parts.length).toBeGreaterThan(0);
	expect(parts.length).toBeLessThanOrEqual(10_000);
	expect(parts.length).toBe(entries.length);
	let offset = 0;
	parts.forEach((part, index) => {
		expect(part.partNumber).toBe(index + 1);
		expect(Number.isSafeInteger(part.start) && Number.isSafeInteger(part.size)).toBe(true);
		expect(part.start).toBe(offset);
		expect(part.size).toBeGreaterThanOrEqual(1);
		expect(part.size).toBeLessThanOrEqual(plan.maxPartBytes);
		const listed = entries.filter((entry) => entry.partNumber === part.partNumber);
		expect(listed).toHaveLength(1);
		const [entry] = listed;
		expect(part.url).toBe(entry.presignedUrl);
		if (entry.startByte !== undefined && entry.startByte !== null) expect(entry.startByte).toBe(part.start);
		if (entry.endByte !== undefined && entry.endByte !== null) expect(entry.endByte).toBe(part.start + part.size - 1);
		if (entry.size !== undefined && entry.size !== null) expect(entry.size).toBe(part.size);
		offset += part.size;
	});
	expect(offset).toBe(plan.fileSize);
	const { totalParts, totalSize, partSize } = plan.answer;
	if (totalParts !== undefined && totalParts !== null) expect(totalParts).toBe(parts.length);
	// totalSize in bytes, or in MB as the request sends fileSize (its unit is not documented).
	if (totalSize !== undefined && totalSize !== null && totalSize !== plan.fileSize) {
		expect(Math.abs(Number(totalSize) - plan.fileSize / (1024 * 1024))).toBeLessThanOrEqual(0.005);
	}
	// partSize decides an offset only where a part gives no byte range.
	const rangeless = entries.some((entry) => entry.startByte === undefined || entry.startByte === null);
	if (rangeless && partSize !== undefined && partSize !== null) expect(Number.isSafeInteger(partSize) && (partSize as number) >= 1).toBe(true);
}
