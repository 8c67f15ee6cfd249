import { randomBytes, randomUUID } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/i;

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID_PATTERN.test(value);
}

/** Directory, schema, file-type, workflow and workspace ids: 24 hexadecimal characters. */
export function isObjectId(value: unknown): value is string {
	return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

export function newUuid(): string {
	return randomUUID();
}

export function newObjectId(): string {
	return randomBytes(12).toString('hex');
}
