/**
 * An agent gets read-only tools (docs/ai-tools.md, Security): every operation of the node is
 * a read, a write or one that waits for a person (refused as a tool) here, every Document Extraction tool in examples/ is a read, and the
 * agent example's three tools work with a read-only API key, with which the same credential
 * cannot delete (the service answers 403).
 */
import * as fs from 'node:fs';
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../dev/emulator';
import { RECEIPT_FILE_NAME, receiptText } from '../../dev/documents';
import { loadPackage, runNode } from '../../dev/harness';
import { AGENT_EXAMPLE } from '../../dev/model/chat-model';
import { EXAMPLES_DIR, NODE_TYPE, readExample } from '../../dev/n8n/n8n-stack';

/** Operations that only read: what an agent may be given. */
const READS: Record<string, string[]> = {
	file: ['getMany', 'getValues', 'getUploadStatus', 'getPreviewUrl', 'download'],
	query: ['execute'],
	fileType: ['getMany'],
	workflow: ['get'],
	workspace: ['getSubscription', 'getProjectSettings'],
};
/** Operations that create, change or delete something in the workspace. */
const WRITES: Record<string, string[]> = {
	file: ['upload', 'delete', 'updateValues', 'rerunExtraction', 'reportExportStatus'],
	fileType: ['approve'],
	schema: ['updateFields'],
	directory: ['create'],
};
/**
 * Operations that wait for a person: they refuse to run as a tool (an agent's tool call cannot
 * pause the execution; docs/ai-tools.md), so they are neither given to an agent nor a risk.
 */
const FOR_PEOPLE: Record<string, string[]> = {
	file: ['reviewValues', 'getReviewLink'],
};
const TOOL_TYPE = `${NODE_TYPE}Tool`;

const isRead = (resource: unknown, operation: unknown) => READS[String(resource)]?.includes(String(operation)) ?? false;

test('every operation of the node is classified here as a read, a write or one for people (never a tool)', async () => {
	const pkg = await loadPackage();
	const type = pkg.nodeTypes[NODE_TYPE];
	const properties = ('nodeVersions' in type ? type.nodeVersions[type.currentVersion] : type).description.properties as INodeProperties[];
	const operations = properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.displayOptions?.show?.resource ?? []).flatMap((resource) => (property.options ?? []).map((option) => `${String(resource)}.${String((option as { value: unknown }).value)}`)));
	const classified = [READS, WRITES, FOR_PEOPLE].flatMap((table) => Object.entries(table).flatMap(([resource, names]) => names.map((name) => `${resource}.${name}`)));
	expect([...operations].sort()).toEqual([...classified].sort());
});

test('every Document Extraction tool in examples/ only reads; the agent example has its three read tools', () => {
	const tools = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.flatMap((name) => readExample(name).nodes.filter((node) => node.type === TOOL_TYPE).map((node) => ({ example: name, node })));
	expect(tools.filter(({ node }) => !isRead(node.parameters.resource, node.parameters.operation)).map(({ example, node }) => `${example}: ${node.name}`)).toEqual([]);
	expect(tools.filter(({ example }) => example === AGENT_EXAMPLE).map(({ node }) => [node.name, node.parameters.resource, node.parameters.operation])).toEqual([
		['List files', 'file', 'getMany'],
		['Get file values', 'file', 'getValues'],
		['Query extracted values', 'query', 'execute'],
	]);
});

describe('the agent example\'s tools with a read-only API key', () => {
	let emulator: Emulator;
	let fileId: string;
	const readOnly = () => ({ documentExtractionApi: { apiKey: emulator.keys.readOnly, instance: 'default', baseUrl: emulator.apiUrl } });
	/** A tool node of the example, its `$fromAI` parameters filled as a model would. */
	const toolParameters = (name: string, filled: INodeParameters): INodeParameters => ({ ...(readExample(AGENT_EXAMPLE).nodes.find((node) => node.name === name)!.parameters as INodeParameters), ...filled });

	beforeAll(async () => {
		emulator = await startEmulator({ processingDelayMs: 0 });
		const answer = await fetch(`${emulator.apiUrl}/prod/v1/files/upload`, {
			method: 'POST',
			headers: { 'x-api-key': emulator.keys.readWrite, 'content-type': 'application/json' },
			body: JSON.stringify({ fileName: RECEIPT_FILE_NAME, fileType: 'text/plain', isSplit: false, schemaLocking: false }),
		});
		const { uploadId, presignedUploadURL } = (await answer.json()) as { uploadId: string; presignedUploadURL: string };
		await fetch(presignedUploadURL, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: receiptText() });
		await emulator.idle();
		fileId = [...emulator.state.files.values()].find((file) => file.uploadId === uploadId)!.fileId;
	});

	afterAll(async () => {
		await emulator?.close();
	});

	test('List files, Get file values and Query extracted values answer; a Delete through the same credential is refused with 403', async () => {
		const list = await runNode({ type: NODE_TYPE, parameters: toolParameters('List files', { limit: 10, filters: {} }), credentials: readOnly() });
		expect(list.error).toBeUndefined();
		expect(list.items.map((item) => item.json.fileId)).toContain(fileId);

		const values = await runNode({ type: NODE_TYPE, parameters: toolParameters('Get file values', { fileId: { __rl: true, mode: 'id', value: fileId } }), credentials: readOnly() });
		expect(values.error).toBeUndefined();
		expect(values.items[0].json).toMatchObject({ 'Receipt Number': 'R-7781' });

		const queryConfig = JSON.stringify({ selectedFields: [{ field: 'fileName', alias: 'file' }], filters: [] });
		const query = await runNode({ type: NODE_TYPE, parameters: toolParameters('Query extracted values', { queryConfig, limit: 5 }), credentials: readOnly() });
		expect(query.error).toBeUndefined();
		expect(query.items.map((item) => item.json.file)).toContain(RECEIPT_FILE_NAME);

		const before = emulator.state.files.size;
		const removal = await runNode({ type: NODE_TYPE, parameters: { resource: 'file', operation: 'delete', fileIds: fileId }, credentials: readOnly() });
		expect(removal.error?.message ?? JSON.stringify(removal.items.map((item) => item.json))).toMatch(/403|read-only/i);
		expect(emulator.state.files.size).toBe(before);
		expect(emulator.state.files.has(fileId)).toBe(true);
	});
});
