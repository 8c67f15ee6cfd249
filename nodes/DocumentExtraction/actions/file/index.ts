import { defineResource } from '../resource';
import * as deleteFiles from './delete.operation';
import * as download from './download.operation';
import * as getMany from './getMany.operation';
import * as getPreviewUrl from './getPreviewUrl.operation';
import * as getUploadStatus from './getUploadStatus.operation';
import * as getValues from './getValues.operation';
import * as reportExportStatus from './reportExportStatus.operation';
import * as rerunExtraction from './rerunExtraction.operation';
import * as reviewValues from './reviewValues.operation';
import * as getReviewLink from './reviewValuesLink';
import * as updateValues from './updateValues/updateValues.operation';
import * as upload from './upload/upload.operation';

export const resource = defineResource({
	value: 'file',
	name: 'File',
	description: 'Uploads, extracted values, previews, exports',
	defaultOperation: 'upload',
	operations: [
		{
			name: 'Upload',
			value: 'upload',
			description: 'Upload a document, wait for processing (polling, or until the service calls back) and get the extracted values',
			action: 'Upload a file',
			toolDescription:
				"Uploads the document in the input item's binary field to the Document Extraction Service, waits until it is processed and returns each processed file with its file ID, status and extracted values (a ZIP gives one result per document inside). Needs a binary input file: a model cannot supply one.",
			module: upload,
		},
		{
			name: 'Get Upload Status',
			value: 'getUploadStatus',
			description: 'Get the processing steps and resulting files of an upload',
			action: 'Get upload status',
			toolDescription:
				'Gets the processing status of an upload by its upload ID (a UUID that Upload returned): the processing steps so far, whether and why it failed, and the resulting files with their file IDs.',
			module: getUploadStatus,
		},
		{
			name: 'Get Values',
			value: 'getValues',
			description: 'Get the values extracted from a file',
			action: 'Get extracted values of a file',
			toolDescription:
				'Gets the values extracted from one document, as field title: value (tables as lists of rows), e.g. invoice number, date, vendor, total. Needs the file ID (a UUID; Get Many files finds it by name or date).',
			module: getValues,
		},
		{
			name: 'Get Many',
			value: 'getMany',
			description: 'List the files of the workspace, with filters',
			action: 'Get many files',
			toolDescription:
				'Lists the documents (files) of the workspace with their file ID, file name, type, processing status and dates, newest first by default. Use it to find a file ID. Optional: created or updated after a date, specific file IDs, sort and limit (default 50).',
			module: getMany,
		},
		{
			name: 'Delete',
			value: 'delete',
			description: 'Delete files permanently (in batches of up to 100)',
			action: 'Delete files',
			toolDescription:
				'Permanently deletes documents (irreversible). Needs their file IDs (UUIDs). Returns, for each ID, whether it was deleted and why not.',
			module: deleteFiles,
		},
		{
			name: 'Update Values',
			value: 'updateValues',
			description: "Change extracted values of a file, its fields listed and typed from the file's schema",
			action: 'Update extracted values of a file',
			toolDescription:
				"Changes extracted values of a document. Needs the file ID (a UUID) and, for each value to change, the field title and the new value. Returns the document's values after the change.",
			module: updateValues,
		},
		{
			name: 'Review Values',
			value: 'reviewValues',
			description: "Wait until a person has checked and corrected the values beside the document, then approve or reject",
			action: 'Review values of a file',
			toolDescription:
				'Not usable by an AI agent: a review waits for a person to open a page and send it. Use Get Values and Update Values instead.',
			module: reviewValues,
		},
		{
			name: 'Get Review Link',
			value: 'getReviewLink',
			description: 'The link of the review page of this execution, for a message before Review Values',
			action: 'Get the review link',
			toolDescription: 'Not usable by an AI agent: the link is for a person, and the review waits in a workflow.',
			module: getReviewLink,
		},
		{
			name: 'Rerun Extraction',
			value: 'rerunExtraction',
			description: 'Extract the values of a file again against its current schema',
			action: 'Rerun extraction of a file',
			toolDescription:
				"Extracts a document's values again against its current schema (for example after the schema changed). Needs the file ID (a UUID). Returns whether the rerun was accepted.",
			module: rerunExtraction,
		},
		{
			name: 'Report Export Status',
			value: 'reportExportStatus',
			description: 'Tell the service what your system did with a file',
			action: 'Report the export status of a file',
			toolDescription:
				'Records what an external system did with a document: completed, error, exporting or empty, with optional messages. Needs the file ID (a UUID). Returns the stored export status.',
			module: reportExportStatus,
		},
		{
			name: 'Get Preview URL',
			value: 'getPreviewUrl',
			description: 'Create a short-lived link to view a stored file',
			action: 'Get a preview URL of a file',
			toolDescription:
				"Creates a link to view a stored document in a browser, valid for about one hour. Needs the file ID (a UUID). Returns the link and the file's name, type and size.",
			module: getPreviewUrl,
		},
		{
			name: 'Download',
			value: 'download',
			description: 'Download a stored file into a binary field',
			action: 'Download a file',
			toolDescription:
				'Downloads a stored document into a binary field of the output item (the bytes are not readable as text). Needs the file ID (a UUID). Returns the file record and the binary.',
			module: download,
		},
	],
});
