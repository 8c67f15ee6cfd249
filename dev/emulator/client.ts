/**
 * Talking to an emulator from outside, as another system would: API calls and uploads over real
 * HTTP (fetch), and the data of our credential pointed at it. The tests and the benchmarks use it.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Emulator } from './index';
import { SEEDED_KEYS } from './seed';

/** JSON bodies are read loosely in assertions: a test states the shape it expects. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiReply<T = Json> {
	status: number;
	headers: Headers;
	body: T;
}

export interface CallOptions {
	key?: string | null;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
	query?: Record<string, string>;
}

export async function call<T = Json>(emu: Emulator, method: string, path: string, options: CallOptions = {}): Promise<ApiReply<T>> {
	const headers: Record<string, string> = { ...options.headers };
	const key = options.key === undefined ? emu.keys.readWrite : options.key;
	if (key !== null) headers['x-api-key'] = key;
	let body: string | undefined = options.rawBody;
	if (options.body !== undefined) {
		body = JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
	const response = await fetch(`${emu.apiUrl}/prod/v1${path}${query}`, { method, headers, body });
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text === '' ? undefined : JSON.parse(text);
	} catch {
		// leave as text
	}
	return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface UploadResult {
	uploadId: string;
	s3Path: string;
	presignedUploadURL: string;
	reply: ApiReply;
}

/** POST /files/upload then PUT the bytes to the presigned URL; waits for processing. */
export async function uploadFile(
	emu: Emulator,
	fileName: string,
	content: string | Buffer,
	options: { fileType?: string; key?: string; extra?: Record<string, unknown>; wait?: boolean } = {},
): Promise<UploadResult> {
	const reply = await call(emu, 'POST', '/files/upload', {
		key: options.key,
		body: { fileName, fileType: options.fileType ?? 'text/plain', ...options.extra },
	});
	if (reply.status !== 200) throw new Error(`upload request failed: ${reply.status} ${JSON.stringify(reply.body)}`);
	const put = await fetch(reply.body.presignedUploadURL, { method: 'PUT', body: content });
	if (put.status !== 200) throw new Error(`storage PUT failed: ${put.status} ${await put.text()}`);
	if (options.wait !== false) await emu.idle();
	return { uploadId: reply.body.uploadId, s3Path: reply.body.s3Path, presignedUploadURL: reply.body.presignedUploadURL, reply };
}

/** Uploads and returns the one file record of the upload (after processing). */
export async function uploadAndGetFile(emu: Emulator, fileName: string, content: string | Buffer, options: Parameters<typeof uploadFile>[3] = {}): Promise<Json> {
	const { uploadId } = await uploadFile(emu, fileName, content, options);
	const status = await call(emu, 'GET', `/uploads/${uploadId}`, { key: options.key });
	return status.body.files[0];
}

/** Uploads a document straight to the emulator's API (POST /files/upload, then the presigned PUT), as another system would. */
export async function uploadToEmulator(
	emulator: Emulator,
	apiKey: string,
	fileName: string,
	bytes: Buffer,
	fileType = 'text/plain',
): Promise<string> {
	const answer = await fetch(`${emulator.apiUrl}/prod/v1/files/upload`, {
		method: 'POST',
		headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({ fileName, fileType, isSplit: false, schemaLocking: false }),
	});
	if (!answer.ok) throw new Error(`POST /files/upload answered ${answer.status}: ${await answer.text()}`);
	const { uploadId, presignedUploadURL } = (await answer.json()) as { uploadId: string; presignedUploadURL: string };
	const put = await fetch(presignedUploadURL, { method: 'PUT', headers: { 'content-type': fileType }, body: bytes });
	if (!put.ok) throw new Error(`storage PUT answered ${put.status}: ${await put.text()}`);
	return uploadId;
}

/** The credentials of a node run through the engine harness, pointed at `emulator` with `apiKey`. */
export function credentialsFor(
	emulator: Emulator,
	apiKey: string = SEEDED_KEYS.readWrite,
): Record<string, ICredentialDataDecryptedObject> {
	return { documentExtractionApi: { apiKey, instance: 'default', baseUrl: emulator.apiUrl } };
}
