/**
 * The bad-input cases of the reliability matrix: every parameter of every operation of the
 * Document Extraction node given values a person (or an n8n expression) can give it by mistake:
 * empty, the wrong type, the wrong id form, too long, hostile URLs and paths, broken JSON.
 *
 * What can be judged without the API is refused before any request ('refused before any
 * request'); what only the service can judge (a well-formed id that does not exist, a field title
 * the file does not have) is sent and must fail clearly ('error', said so in the case's name).
 */
import type { INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import { createBinaryItem } from '../../dev/harness';
import type { CaseContext, Expectation, MatrixCase } from './matrix';

/** Well-formed ids that name nothing in a fresh emulator. */
const UNKNOWN_UUID = '3f2b6c1e-8a4d-4c1f-9e2a-5b7d9c0e1f23';
const UNKNOWN_OBJECT_ID = '6650a00000000000000e9999';

const LONG_300 = 'x'.repeat(300);
const LONG_10K = 'x'.repeat(10_000);

/**
 * A value as an expression gives it (`={{ $json.x }}`): n8n itself refuses a workflow whose
 * required text parameter is literally empty, or whose locator fails the editor's check, before
 * the node runs; the same values from an expression reach the node, which must refuse them.
 */
const fromExpression = (text: string) => `=${text}`;
/** An n8n expression that produces the JavaScript value written in `source`. */
const expression = (source: string) => `={{ ${source} }}`;
/** A resource locator in its "By ID" mode, its value given through an expression. */
const byId = (value: string) => ({ __rl: true, mode: 'id', value: value.startsWith('=') ? value : fromExpression(value) });

type CaseOptions = Partial<Omit<MatrixCase, 'group' | 'name' | 'operation' | 'expect'>>;

function inputCase(operation: string, name: string, expect: Expectation, options: CaseOptions = {}): MatrixCase {
	return { group: 'input', name, operation, expect, ...options };
}

/** Refused before any request. */
function refused(operation: string, name: string, options: CaseOptions = {}): MatrixCase {
	return inputCase(operation, name, 'refused before any request', options);
}

/** Only the service can judge it: sent, and fails with the service's reason. */
function apiJudges(operation: string, name: string, options: CaseOptions = {}): MatrixCase {
	const said = name.endsWith(')') ? `${name.slice(0, -1)}; the API judges)` : `${name} (the API judges)`;
	return inputCase(operation, said, 'error', options);
}

// ---------------------------------------------------------------- File > Upload

const oneDocument = async (context: CaseContext) => await context.documents(1);

function uploadCase(name: string, expect: Expectation, options: INodeParameters, extra: CaseOptions = {}): MatrixCase {
	return inputCase('file.upload', name, expect, {
		parameters: { options: { pollInterval: 0.5, ...options } },
		input: oneDocument,
		...extra,
	});
}

const refusedUpload = (name: string, options: INodeParameters, extra: CaseOptions = {}) =>
	uploadCase(name, 'refused before any request', options, extra);

const UPLOAD_CASES: MatrixCase[] = [
	// the binary
	refusedUpload('binaryPropertyName "" (empty)', {}, { parameters: { binaryPropertyName: fromExpression(''), options: { pollInterval: 0.5 } } }),
	refusedUpload('binaryPropertyName "attachment" (no such binary field)', {}, {
		parameters: { binaryPropertyName: 'attachment', options: { pollInterval: 0.5 } },
	}),
	refusedUpload('an input item without binary data', {}, { input: async () => [{ json: { invoice: 42 } }] }),
	refusedUpload('an empty (0-byte) file', {}, {
		input: async () => [await createBinaryItem({ buffer: Buffer.alloc(0), fileName: 'empty.pdf', mimeType: 'application/pdf' })],
	}),
	// file name and MIME type
	refusedUpload('fileName "   " (blank)', { fileName: '   ' }),
	refusedUpload('fileName of 300 characters', { fileName: `${LONG_300}.pdf` }),
	refusedUpload('fileName {"name":"a.pdf"} (an object)', { fileName: expression('{ name: "a.pdf" }') }),
	refusedUpload('fileName "inv\\noice.pdf" (a line break)', { fileName: 'inv\noice.pdf' }),
	uploadCase('fileName 2024 (a number, sent as the text "2024", which has no extension; the API judges)', 'error', { fileName: expression('2024') }),
	refusedUpload('mimeType "pdf"', { mimeType: 'pdf' }),
	refusedUpload('mimeType "text/plain\\r\\nX-Injected: 1" (header injection)', { mimeType: 'text/plain\r\nX-Injected: 1' }),
	refusedUpload('mimeType of 300 characters', { mimeType: `application/${LONG_300}` }),
	// callback URL
	refusedUpload('callbackURL "http://example.com/hook" (plain http)', { callbackURL: 'http://example.com/hook' }),
	refusedUpload('callbackURL "javascript:alert(1)"', { callbackURL: 'javascript:alert(1)' }),
	refusedUpload('callbackURL "https://user:pass@example.com/hook" (user info)', { callbackURL: 'https://user:pass@example.com/hook' }),
	refusedUpload('callbackURL "https://example.com/my hook" (a space)', { callbackURL: 'https://example.com/my hook' }),
	refusedUpload('callbackURL "https://exa\\tmple.com/hook" (a tab the URL parser would drop)', { callbackURL: 'https://exa\tmple.com/hook' }),
	refusedUpload('callbackURL "https://example.com/\\u0000hook" (a control character)', { callbackURL: 'https://example.com/\u0000hook' }),
	refusedUpload('callbackURL "https:\\\\example.com\\hook" (backslashes)', { callbackURL: 'https:\\\\example.com\\hook' }),
	refusedUpload('callbackURL "ftp://example.com/hook"', { callbackURL: 'ftp://example.com/hook' }),
	refusedUpload('callbackURL of 10,000 characters', { callbackURL: `https://example.com/${LONG_10K}` }),
	// directory and destination path
	refusedUpload('directoryId "not-a-directory"', { directoryId: 'not-a-directory' }),
	refusedUpload(`directoryId ["${UNKNOWN_OBJECT_ID}"] (an array)`, { directoryId: expression(`["${UNKNOWN_OBJECT_ID}"]`) }),
	uploadCase(`directoryId "${UNKNOWN_OBJECT_ID}" (well-formed, no such directory; the API judges)`, 'error', { directoryId: UNKNOWN_OBJECT_ID }),
	refusedUpload('destinationPath "../outside"', { destinationPath: '../outside' }),
	refusedUpload('destinationPath "invoices\\2024" (a backslash)', { destinationPath: 'invoices\\2024' }),
	refusedUpload('destinationPath "invoices/%2e%2e/x" (an encoded ..)', { destinationPath: 'invoices/%2e%2e/x' }),
	refusedUpload('destinationPath "invoices//2024" (an empty folder name)', { destinationPath: 'invoices//2024' }),
	refusedUpload('destinationPath "invoices/\\u0000" (a control character)', { destinationPath: 'invoices/\u0000' }),
	refusedUpload('destinationPath of 10,000 characters', { destinationPath: LONG_10K }),
	uploadCase('destinationPath 2024 (a number: the folder "2024")', 'success', { destinationPath: expression('2024') }),
	// the other upload fields
	refusedUpload('pageCount 0', { pageCount: 0 }),
	refusedUpload('pageCount "many"', { pageCount: expression('"many"') }),
	refusedUpload('apiRequestId of 300 characters', { apiRequestId: LONG_300 }),
	refusedUpload('apiRequestId {"id":1} (an object)', { apiRequestId: expression('{ id: 1 }') }),
	refusedUpload('ocrModel of 300 characters', { ocrModel: byId(LONG_300) }),
	refusedUpload('isSplit "yes" (text where true/false is expected)', { isSplit: expression('"yes"') }),
	// multipart and waiting
	refusedUpload('multipart "sometimes"', { multipart: 'sometimes' }),
	refusedUpload('multipartThreshold -1', { multipartThreshold: -1 }),
	refusedUpload('partSize 2 (below 5 MB)', { multipart: 'always', partSize: 2 }),
	refusedUpload('partSize 2 with Multipart Upload "Auto" and a small file', { partSize: 2 }),
	refusedUpload('partConcurrency 1000 (above 32)', { multipart: 'always', partConcurrency: 1000 }),
	refusedUpload('pollInterval 0', { pollInterval: 0 }),
	refusedUpload('pollInterval "fast"', { pollInterval: expression('"fast"') }),
	refusedUpload('waitTimeout 0', { waitTimeout: 0 }),
	refusedUpload('waitTimeout "forever"', { waitTimeout: expression('"forever"') }),
	refusedUpload('maxRateLimitWait -1', { maxRateLimitWait: -1 }),
	refusedUpload('requestTimeout "slow"', { requestTimeout: expression('"slow"') }),
	refusedUpload('batching batchSize 0', { batching: { batch: { batchSize: 0, batchInterval: 0 } } }),
	refusedUpload('batching batchInterval -100', { batching: { batch: { batchSize: 2, batchInterval: -100 } } }),
	refusedUpload('waitForCompletion "no" (text where true/false is expected)', {}, {
		parameters: { waitForCompletion: expression('"no"'), options: { pollInterval: 0.5 } },
	}),
];

// ---------------------------------------------------------------- the File locator (shared by six operations)

/**
 * Bad values of the File parameter (a resource locator holding a UUID). Every operation reads it
 * with the same check (readFileId); Get Values gets every value, the others a few.
 */
function fileIdCases(operation: string, extra: INodeParameters = {}, every = false): MatrixCase[] {
	const withFile = (fileId: NodeParameterValueType) => ({ ...extra, fileId });
	const some = [
		refused(operation, 'fileId "not-a-uuid"', { parameters: withFile(byId('not-a-uuid')) }),
		apiJudges(operation, `fileId "${UNKNOWN_UUID}" (well-formed, no such file)`, { parameters: withFile(byId(UNKNOWN_UUID)) }),
	];
	if (!every) return some;
	return [
		refused(operation, 'fileId "" (empty)', { parameters: withFile(byId('')) }),
		refused(operation, `fileId ["${UNKNOWN_UUID}"] (an array)`, { parameters: withFile(byId(expression(`["${UNKNOWN_UUID}"]`))) }),
		refused(operation, 'fileId 12345 (a number)', { parameters: withFile(byId(expression('12345'))) }),
		refused(operation, 'fileId {"fileId":…} (an object)', { parameters: withFile(byId(expression(`{ fileId: "${UNKNOWN_UUID}" }`))) }),
		refused(operation, 'fileId of 10,000 characters', { parameters: withFile(byId(LONG_10K)) }),
		refused(operation, 'fileId "not-a-uuid" given as plain text (no locator)', { parameters: { ...extra, fileId: 'not-a-uuid' } }),
		...some,
	];
}

const seededFile = (extra: INodeParameters = {}) => (ids: string[]) => ({ fileId: byId(ids[0]), ...extra });

// ---------------------------------------------------------------- the other File operations

const FILE_CASES: MatrixCase[] = [
	// Get Upload Status
	refused('file.getUploadStatus', 'uploadId "" (empty)', { parameters: { uploadId: fromExpression('') } }),
	refused('file.getUploadStatus', 'uploadId "not-a-uuid"', { parameters: { uploadId: 'not-a-uuid' } }),
	refused('file.getUploadStatus', 'uploadId "../files" (a path)', { parameters: { uploadId: '../files' } }),
	refused('file.getUploadStatus', `uploadId ["${UNKNOWN_UUID}"] (an array)`, { parameters: { uploadId: expression(`["${UNKNOWN_UUID}"]`) } }),
	apiJudges('file.getUploadStatus', `uploadId "${UNKNOWN_UUID}" (well-formed, no such upload)`, { parameters: { uploadId: UNKNOWN_UUID } }),
	refused('file.getUploadStatus', 'maxRateLimitWait "long"', { parameters: { uploadId: UNKNOWN_UUID, options: { maxRateLimitWait: expression('"long"') } } }),

	// Get Values
	...fileIdCases('file.getValues', {}, true),
	refused('file.getValues', 'requestTimeout 0', { parameters: { fileId: byId(UNKNOWN_UUID), options: { requestTimeout: 0 } } }),

	// Get Many
	refused('file.getMany', 'filters.fileIds "abc, def"', { parameters: { filters: { fileIds: 'abc, def' } } }),
	refused('file.getMany', `filters.fileIds "${UNKNOWN_UUID}, 12345"`, { parameters: { filters: { fileIds: `${UNKNOWN_UUID}, 12345` } } }),
	refused('file.getMany', 'filters.fileIds [{"fileId":…}] (an array of objects)', {
		parameters: { filters: { fileIds: expression(`[{ fileId: "${UNKNOWN_UUID}" }]`) } },
	}),
	refused('file.getMany', 'filters.createdAfter "yesterday"', { parameters: { filters: { createdAfter: 'yesterday' } } }),
	refused('file.getMany', 'filters.createdAfter "2026-02-30T00:00:00Z" (no such day)', { parameters: { filters: { createdAfter: '2026-02-30T00:00:00Z' } } }),
	refused('file.getMany', 'filters.updatedAfter "2026-01-01T25:00" (no such hour)', { parameters: { filters: { updatedAfter: '2026-01-01T25:00' } } }),
	refused('file.getMany', 'limit 0', { parameters: { limit: 0 } }),
	refused('file.getMany', 'limit "all"', { parameters: { limit: expression('"all"') } }),
	inputCase('file.getMany', 'limit 1000 (above the API page size of 100: paged)', 'success', { parameters: { limit: 1000 }, seed: 2 }),
	refused('file.getMany', 'returnAll "yes" (text where true/false is expected)', { parameters: { returnAll: expression('"yes"') } }),
	refused('file.getMany', 'sortBy "fileName" (not offered)', { parameters: { options: { sortBy: 'fileName' } } }),
	refused('file.getMany', 'sortOrder "sideways"', { parameters: { options: { sortOrder: 'sideways' } } }),

	// Delete
	refused('file.delete', 'fileIds "" (empty)', { parameters: { fileIds: fromExpression('') } }),
	refused('file.delete', 'fileIds " , ,\\n" (only separators)', { parameters: { fileIds: ' , ,\n' } }),
	refused('file.delete', 'fileIds "not-a-uuid"', { parameters: { fileIds: 'not-a-uuid' } }),
	refused('file.delete', `fileIds "${UNKNOWN_UUID};${UNKNOWN_UUID}" (a semicolon)`, { parameters: { fileIds: `${UNKNOWN_UUID};${UNKNOWN_UUID}` } }),
	refused('file.delete', 'fileIds {"fileId":…} (an object)', { parameters: { fileIds: expression(`{ fileId: "${UNKNOWN_UUID}" }`) } }),
	refused('file.delete', 'fileIds [{"fileId":…}] (an array of objects)', { parameters: { fileIds: expression(`[{ fileId: "${UNKNOWN_UUID}" }]`) } }),
	refused('file.delete', 'fileIds of 10,000 characters', { parameters: { fileIds: LONG_10K } }),
	inputCase('file.delete', `fileIds "${UNKNOWN_UUID}" (well-formed, no such file: the API says which were not deleted)`, 'success', {
		parameters: { fileIds: UNKNOWN_UUID },
	}),

	// Update Values
	...fileIdCases('file.updateValues', { inputMode: 'json', valuesJson: '[{ "title": "Total Amount", "value": 1 }]' }),
	refused('file.updateValues', 'valuesJson "{not json"', { seed: 1, parameters: seededFile({ inputMode: 'json', valuesJson: '{not json' }) }),
	refused('file.updateValues', 'valuesJson "[]" (no field)', { seed: 1, parameters: seededFile({ inputMode: 'json', valuesJson: '[]' }) }),
	refused('file.updateValues', 'valuesJson "42"', { seed: 1, parameters: seededFile({ inputMode: 'json', valuesJson: '42' }) }),
	refused('file.updateValues', 'valuesJson [{"value":1}] (no title)', { seed: 1, parameters: seededFile({ inputMode: 'json', valuesJson: '[{ "value": 1 }]' }) }),
	refused('file.updateValues', 'valuesJson [{"title":"Total Amount"}] (no value)', {
		seed: 1,
		parameters: seededFile({ inputMode: 'json', valuesJson: '[{ "title": "Total Amount" }]' }),
	}),
	apiJudges('file.updateValues', 'valuesJson [{"title":"No Such Field","value":1}] (a title the file does not have)', {
		seed: 1,
		parameters: seededFile({ inputMode: 'json', valuesJson: '[{ "title": "No Such Field", "value": 1 }]' }),
	}),
	refused('file.updateValues', 'inputMode "xml"', { seed: 1, parameters: seededFile({ inputMode: 'xml' }) }),
	refused('file.updateValues', 'fields (none)', { seed: 1, parameters: seededFile({ inputMode: 'fields', fields: {} }) }),
	refused('file.updateValues', 'fields title "" (empty)', {
		seed: 1,
		parameters: seededFile({ inputMode: 'fields', fields: { field: [{ title: fromExpression(''), valueType: 'string', value: 'x' }] } }),
	}),
	refused('file.updateValues', 'fields value "twelve" as a number', {
		seed: 1,
		parameters: seededFile({ inputMode: 'fields', fields: { field: [{ title: 'Total Amount', valueType: 'number', value: 'twelve' }] } }),
	}),
	refused('file.updateValues', 'fields value "{broken" as JSON', {
		seed: 1,
		parameters: seededFile({ inputMode: 'fields', fields: { field: [{ title: 'Lines', valueType: 'json', value: '{broken' }] } }),
	}),
	refused('file.updateValues', 'fields valueType "date" (not offered)', {
		seed: 1,
		parameters: seededFile({ inputMode: 'fields', fields: { field: [{ title: 'Due Date', valueType: 'date', value: '2026-01-01' }] } }),
	}),

	// Rerun Extraction
	...fileIdCases('file.rerunExtraction'),
	refused('file.rerunExtraction', 'fields {"title":"Total"} (an object)', { seed: 1, parameters: seededFile({ options: { fields: expression('{ title: "Total" }') } }) }),
	apiJudges('file.rerunExtraction', 'fields "No Such Field" (a title the schema does not have)', { seed: 1, parameters: seededFile({ options: { fields: 'No Such Field' } }) }),
	refused('file.rerunExtraction', 'referenceEntityName "USER" (not offered)', { seed: 1, parameters: seededFile({ options: { referenceEntityName: 'USER' } }) }),
	refused('file.rerunExtraction', 'referenceEntityAction "PURGE" (not offered)', { seed: 1, parameters: seededFile({ options: { referenceEntityAction: 'PURGE' } }) }),
	refused('file.rerunExtraction', 'referenceEntityId "not-an-id" (for a FILE)', { seed: 1, parameters: seededFile({ options: { referenceEntityId: 'not-an-id' } }) }),
	refused('file.rerunExtraction', `referenceEntityId "${UNKNOWN_UUID}" for a SCHEMA (a schema id is 24 hex)`, {
		seed: 1,
		parameters: seededFile({ options: { referenceEntityName: 'SCHEMA', referenceEntityId: UNKNOWN_UUID } }),
	}),
	refused('file.rerunExtraction', 'backgroundRerun "no" (text where true/false is expected)', { seed: 1, parameters: seededFile({ backgroundRerun: expression('"no"') }) }),

	// Report Export Status
	...fileIdCases('file.reportExportStatus', { status: 'completed' }),
	refused('file.reportExportStatus', 'status "done" (not offered)', { seed: 1, parameters: seededFile({ status: 'done' }) }),
	refused('file.reportExportStatus', 'status "" (empty)', { seed: 1, parameters: seededFile({ status: '' }) }),
	refused('file.reportExportStatus', 'status 1 (a number)', { seed: 1, parameters: seededFile({ status: expression('1') }) }),
	refused('file.reportExportStatus', 'messages {"text":"booked"} (an object)', {
		seed: 1,
		parameters: seededFile({ status: 'completed', options: { messages: expression('{ text: "booked" }') } }),
	}),
	refused('file.reportExportStatus', 'messages [{"text":"booked"}] (an array of objects)', {
		seed: 1,
		parameters: seededFile({ status: 'completed', options: { messages: expression('[{ text: "booked" }]') } }),
	}),

	// Get Preview URL
	...fileIdCases('file.getPreviewUrl'),

	// Download
	...fileIdCases('file.download'),
	refused('file.download', 'binaryPropertyName "" (empty)', { seed: 1, parameters: seededFile({ binaryPropertyName: fromExpression('') }) }),
	refused('file.download', 'binaryPropertyName of 300 characters', { seed: 1, parameters: seededFile({ binaryPropertyName: LONG_300 }) }),
	refused('file.download', 'binaryPropertyName {"a":1} (an object)', { seed: 1, parameters: seededFile({ binaryPropertyName: expression('{ a: 1 }') }) }),
	refused('file.download', 'binaryPropertyName "my\\nfield" (a line break)', { seed: 1, parameters: seededFile({ binaryPropertyName: 'my\nfield' }) }),
];

// ---------------------------------------------------------------- Directory, File Type, Workflow

const OTHER_CASES: MatrixCase[] = [
	// Directory > Create
	refused('directory.create', 'name "" (empty)', { parameters: { name: fromExpression('') } }),
	refused('directory.create', 'name "   " (blank)', { parameters: { name: '   ' } }),
	refused('directory.create', 'name of 300 characters', { parameters: { name: LONG_300 } }),
	refused('directory.create', 'name {"a":1} (an object)', { parameters: { name: expression('{ a: 1 }') } }),
	apiJudges('directory.create', 'name "a/b" (a path separator)', { parameters: { name: 'a/b' } }),
	refused('directory.create', 'name "tab\\there" (a control character)', { parameters: { name: 'tab\there' } }),
	refused('directory.create', 'parentDirectory "not-a-directory"', { parameters: { name: 'Invoices', parentDirectory: byId('not-a-directory') } }),
	refused('directory.create', 'parentDirectory 42 (a number)', { parameters: { name: 'Invoices', parentDirectory: byId(expression('42')) } }),
	refused('directory.create', `parentDirectory ["${UNKNOWN_OBJECT_ID}"] (an array)`, {
		parameters: { name: 'Invoices', parentDirectory: byId(expression(`["${UNKNOWN_OBJECT_ID}"]`)) },
	}),
	apiJudges('directory.create', `parentDirectory "${UNKNOWN_OBJECT_ID}" (well-formed, no such directory)`, {
		parameters: { name: 'Invoices', parentDirectory: byId(UNKNOWN_OBJECT_ID) },
	}),
	refused('directory.create', 'description {"a":1} (an object)', { parameters: { name: 'Invoices', description: expression('{ a: 1 }') } }),
	apiJudges('directory.create', 'description of 10,000 characters', { parameters: { name: 'Invoices', description: LONG_10K } }),

	// File Type > Get Many
	refused('fileType.getMany', 'limit 0', { parameters: { limit: 0 } }),
	refused('fileType.getMany', 'limit "ten"', { parameters: { limit: expression('"ten"') } }),
	refused('fileType.getMany', 'sortBy "color" (not offered)', { parameters: { options: { sortBy: 'color' } } }),
	refused('fileType.getMany', 'sortOrder "up" (not offered)', { parameters: { options: { sortOrder: 'up' } } }),

	// File Type > Approve
	refused('fileType.approve', 'approveBy "magic" (not offered)', { parameters: { approveBy: 'magic' } }),
	refused('fileType.approve', 'fileType "" (empty)', { parameters: { approveBy: 'fileType', fileType: byId('') } }),
	refused('fileType.approve', 'fileType "invoice"', { parameters: { approveBy: 'fileType', fileType: byId('invoice') } }),
	refused('fileType.approve', `fileType ["${UNKNOWN_OBJECT_ID}"] (an array)`, {
		parameters: { approveBy: 'fileType', fileType: byId(expression(`["${UNKNOWN_OBJECT_ID}"]`)) },
	}),
	apiJudges('fileType.approve', `fileType "${UNKNOWN_OBJECT_ID}" (well-formed, no such file type)`, {
		parameters: { approveBy: 'fileType', fileType: byId(UNKNOWN_OBJECT_ID) },
	}),
	refused('fileType.approve', 'blueprintId "bp-1"', { parameters: { approveBy: 'ids', blueprintId: 'bp-1', schemaId: UNKNOWN_OBJECT_ID } }),
	refused('fileType.approve', 'schemaId "" (empty)', { parameters: { approveBy: 'ids', blueprintId: UNKNOWN_OBJECT_ID, schemaId: fromExpression('') } }),
	refused('fileType.approve', 'schemaId of 10,000 characters', { parameters: { approveBy: 'ids', blueprintId: UNKNOWN_OBJECT_ID, schemaId: LONG_10K } }),
	apiJudges('fileType.approve', 'blueprintId and schemaId well-formed, no such schema', {
		parameters: { approveBy: 'ids', blueprintId: UNKNOWN_OBJECT_ID, schemaId: UNKNOWN_OBJECT_ID },
	}),

	// Workflow > Get
	refused('workflow.get', 'workflowId "" (empty)', { parameters: { workflowId: byId('') } }),
	refused('workflow.get', 'workflowId "wf-123"', { parameters: { workflowId: byId('wf-123') } }),
	refused('workflow.get', 'workflowId "../subscription" (a path)', { parameters: { workflowId: byId('../subscription') } }),
	refused('workflow.get', `workflowId ["${UNKNOWN_OBJECT_ID}"] (an array)`, { parameters: { workflowId: byId(expression(`["${UNKNOWN_OBJECT_ID}"]`)) } }),
	apiJudges('workflow.get', `workflowId "${UNKNOWN_OBJECT_ID}" (well-formed, no such workflow)`, { parameters: { workflowId: byId(UNKNOWN_OBJECT_ID) } }),
];

// ---------------------------------------------------------------- Query, Schema, Workspace

const QUERY_CONFIG = '{ "selectedFields": [{ "field": "fileName", "alias": "name" }] }';

const QUERY_SCHEMA_WORKSPACE_CASES: MatrixCase[] = [
	// Query > Execute
	refused('query.execute', 'queryConfig "{not json"', { parameters: { queryConfig: '{not json' } }),
	refused('query.execute', 'queryConfig "" (empty)', { parameters: { queryConfig: '' } }),
	refused('query.execute', 'queryConfig "[1, 2]" (an array)', { parameters: { queryConfig: '[1, 2]' } }),
	refused('query.execute', 'queryConfig 42 (a number)', { parameters: { queryConfig: expression('42') } }),
	apiJudges('query.execute', 'queryConfig {"selectedFields":[{"field":"No Such Field"}]} (a field no file has)', {
		seed: 1,
		parameters: { queryConfig: '{ "selectedFields": [{ "field": "No Such Field", "alias": "x" }] }' },
	}),
	refused('query.execute', 'documentTypes ["invoice"]', { parameters: { queryConfig: QUERY_CONFIG, documentTypes: ['invoice'] } }),
	refused('query.execute', 'folderIds "folder-1"', { parameters: { queryConfig: QUERY_CONFIG, folderIds: 'folder-1' } }),
	refused('query.execute', `folderIds "${UNKNOWN_UUID}" (a UUID, not a directory id)`, { parameters: { queryConfig: QUERY_CONFIG, folderIds: UNKNOWN_UUID } }),
	refused('query.execute', 'limit 0', { parameters: { queryConfig: QUERY_CONFIG, limit: 0 } }),
	refused('query.execute', 'offset "next"', { parameters: { queryConfig: QUERY_CONFIG, options: { offset: expression('"next"') } } }),
	refused('query.execute', 'pageSize "big"', { parameters: { queryConfig: QUERY_CONFIG, returnAll: true, options: { pageSize: expression('"big"') } } }),
	refused('query.execute', 'output "table" (not offered)', { parameters: { queryConfig: QUERY_CONFIG, output: 'table' } }),

	// Schema > Update Fields
	refused('schema.updateFields', 'schemaId "" (empty)', { parameters: { schemaId: fromExpression(''), inputMode: 'json', fieldsJson: '[{ "title": "Total" }]' } }),
	refused('schema.updateFields', 'schemaId "v1"', { parameters: { schemaId: 'v1', inputMode: 'json', fieldsJson: '[{ "title": "Total" }]' } }),
	refused('schema.updateFields', `schemaId ["${UNKNOWN_OBJECT_ID}"] (an array)`, {
		parameters: { schemaId: expression(`["${UNKNOWN_OBJECT_ID}"]`), inputMode: 'json', fieldsJson: '[{ "title": "Total" }]' },
	}),
	apiJudges('schema.updateFields', `schemaId "${UNKNOWN_OBJECT_ID}" (well-formed, no such schema)`, {
		parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[{ "title": "Total" }]' },
	}),
	refused('schema.updateFields', 'fieldsJson "[{broken"', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[{broken' } }),
	refused('schema.updateFields', 'fieldsJson "{}" (an object, not an array)', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '{}' } }),
	refused('schema.updateFields', 'fieldsJson "[]" (no field)', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[]' } }),
	refused('schema.updateFields', 'fieldsJson "[42]"', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[42]' } }),
	refused('schema.updateFields', 'fieldsJson [{"description":"orphan"}] (no id or title)', {
		parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[{ "description": "orphan" }]' },
	}),
	refused('schema.updateFields', 'fieldsJson [{"title":"Total","type":"money"}]', {
		parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'json', fieldsJson: '[{ "title": "Total", "type": "money" }]' },
	}),
	refused('schema.updateFields', 'fields (none)', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'fields', fields: {} } }),
	refused('schema.updateFields', 'inputMode "xml"', { parameters: { schemaId: UNKNOWN_OBJECT_ID, inputMode: 'xml', fieldsJson: '[{ "title": "Total" }]' } }),

	// Workspace: no parameters but the request options
	refused('workspace.getSubscription', 'maxRateLimitWait -1', { parameters: { options: { maxRateLimitWait: -1 } } }),
	refused('workspace.getSubscription', 'requestTimeout "slow"', { parameters: { options: { requestTimeout: expression('"slow"') } } }),
	refused('workspace.getProjectSettings', 'requestTimeout -1', { parameters: { options: { requestTimeout: -1 } } }),
	refused('workspace.getProjectSettings', 'maxRateLimitWait 86400 (above 3600)', { parameters: { options: { maxRateLimitWait: 86_400 } } }),
];

export const INPUT_CASES: MatrixCase[] = [...UPLOAD_CASES, ...FILE_CASES, ...OTHER_CASES, ...QUERY_SCHEMA_WORKSPACE_CASES];
