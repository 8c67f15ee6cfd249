/**
 * The example workflows `npm start` imports into n8n: every examples/*.json but the ones excluded
 * on purpose (each named in examples/README.md with its reason), each runnable in the editor as
 * is (an Upload gets its file from a node that reads one, not straight from a manual trigger),
 * each reading only sample documents that exist, and each listed in both READMEs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	EMULATOR_CREDENTIAL_ID,
	EXAMPLES_DIR,
	NODE_TYPE,
	NOT_FOR_THE_EDITOR,
	REPOSITORY_ROOT,
	exampleWorkflowFiles,
	findNode,
	readExample,
	type WorkflowJson,
} from '../../dev/n8n/n8n-stack';
import { INVOICE_PDF_FILE_NAME, invoicePdf } from '../../dev/documents';
import { EMBEDDED_SAMPLE, embeddedSampleBytes } from '../../dev/example-documents';

const allExamples = fs
	.readdirSync(EXAMPLES_DIR)
	.filter((name) => name.endsWith('.json'))
	.sort();
const examplesReadme = fs.readFileSync(path.join(EXAMPLES_DIR, 'README.md'), 'utf8');
const readme = fs.readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');

/** Names of the nodes whose main output feeds `target`. */
function parentsOf(workflow: WorkflowJson, target: string): string[] {
	const connections = workflow.connections as Record<string, { main?: Array<Array<{ node: string }> | null> }>;
	return Object.entries(connections)
		.filter(([, outputs]) => (outputs.main ?? []).some((targets) => (targets ?? []).some((entry) => entry.node === target)))
		.map(([from]) => from);
}

describe('example workflows imported by npm start', () => {
	it('are every examples/*.json except the ones excluded on purpose', () => {
		expect(allExamples.length).toBeGreaterThan(0);
		expect(exampleWorkflowFiles()).toEqual(allExamples.filter((name) => !NOT_FOR_THE_EDITOR.has(name)));
		expect(exampleWorkflowFiles()).toContain('upload-and-extract.json');
	});

	it('an excluded example is named in examples/README.md with its reason', () => {
		for (const name of NOT_FOR_THE_EDITOR) {
			expect(allExamples).toContain(name);
			expect(examplesReadme).toMatch(new RegExp(`not imported[^\\n]*${name.replace(/\./g, '\\.')}`, 'i'));
		}
	});

	it.each(allExamples)('%s: every Upload gets its file from a node that reads one, not from a bare manual trigger', (name) => {
		const workflow = readExample(name);
		const uploads = workflow.nodes.filter((node) => node.type === NODE_TYPE && node.parameters.resource === 'file' && node.parameters.operation === 'upload');
		for (const upload of uploads) {
			const parents = parentsOf(workflow, upload.name).map((parent) => workflow.nodes.find((node) => node.name === parent)?.type);
			expect(parents.length).toBeGreaterThan(0);
			expect(parents).not.toContain('n8n-nodes-base.manualTrigger');
		}
	});

	it.each(allExamples)('%s: reads only sample documents that exist and uses the emulator credential', (name) => {
		const workflow = readExample(name);
		for (const node of workflow.nodes) {
			if (node.type === 'n8n-nodes-base.readWriteFile') {
				const selector = String(node.parameters.fileSelector);
				expect(selector).toMatch(/^documents\//);
				const pattern = new RegExp(`^${selector.slice('documents/'.length).replace(/\./g, '\\.').replace(/\*/g, '.*')}$`);
				expect(fs.readdirSync(path.join(EXAMPLES_DIR, 'documents')).filter((file) => pattern.test(file)).length).toBeGreaterThan(0);
			}
			if (node.type.startsWith('n8n-nodes-document-extraction.')) {
				expect(node.credentials?.documentExtractionApi?.id).toBe(EMULATOR_CREDENTIAL_ID);
			}
		}
	});

	it('upload-and-extract.json carries the sample invoice itself, byte for byte, and reads no file: it runs as imported in any n8n', () => {
		const workflow = readExample('upload-and-extract.json');
		expect(embeddedSampleBytes().equals(invoicePdf())).toBe(true);
		expect(embeddedSampleBytes().equals(fs.readFileSync(path.join(EXAMPLES_DIR, 'documents', INVOICE_PDF_FILE_NAME)))).toBe(true);
		expect(workflow.nodes.map((node) => node.type)).not.toContain('n8n-nodes-base.readWriteFile');
		expect(parentsOf(workflow, 'Upload and extract')).toEqual(['As a PDF file']);
		expect(findNode(workflow, 'As a PDF file').parameters).toMatchObject({ operation: 'toBinary', sourceProperty: EMBEDDED_SAMPLE.field, options: { fileName: INVOICE_PDF_FILE_NAME, mimeType: 'application/pdf' } });
	});

	it('the examples that read a folder are the ones the READMEs tell how to run in your own n8n', () => {
		const readingFiles = allExamples.filter((name) => readExample(name).nodes.some((node) => node.type === 'n8n-nodes-base.readWriteFile'));
		expect(readingFiles).toEqual(['baseline-http-request.json', 'extract-documents-from-disk.json']);
		const ownN8n = readme.slice(readme.indexOf('### Examples'), readme.indexOf('## Install in n8n'));
		for (const name of readingFiles) expect(ownN8n).toContain(name.replace(/\.json$/, ''));
		expect(ownN8n).toContain('~/.n8n-files');
		expect(ownN8n).toContain('N8N_RESTRICT_FILE_ACCESS_TO');
		expect(examplesReadme).toContain('~/.n8n-files/documents');
	});

	it.each(allExamples)('%s is listed in README.md and examples/README.md', (name) => {
		expect(readme).toContain(`(examples/${name})`);
		expect(examplesReadme).toContain(`(${name})`);
	});
});
