import { defineResource } from '../resource';
import * as deleteFiles from './delete.operation';
import * as download from './download.operation';
import * as getMany from './getMany.operation';
import * as getPreviewUrl from './getPreviewUrl.operation';
import * as getUploadStatus from './getUploadStatus.operation';
import * as getValues from './getValues.operation';
import * as reportExportStatus from './reportExportStatus.operation';
import * as rerunExtraction from './rerunExtraction.operation';
import * as updateValues from './updateValues.operation';
import * as upload from './upload.operation';

export const { operations, description } = defineResource('file', 'upload', [
	{
		name: 'Upload',
		value: 'upload',
		description: 'Upload a document, wait for processing and get the extracted values',
		action: 'Upload a file',
		module: upload,
	},
	{
		name: 'Get Upload Status',
		value: 'getUploadStatus',
		description: 'Get the processing steps and resulting files of an upload',
		action: 'Get upload status',
		module: getUploadStatus,
	},
	{
		name: 'Get Values',
		value: 'getValues',
		description: 'Get the values extracted from a file',
		action: 'Get extracted values of a file',
		module: getValues,
	},
	{
		name: 'Get Many',
		value: 'getMany',
		description: 'List the files of the workspace, with filters',
		action: 'Get many files',
		module: getMany,
	},
	{
		name: 'Delete',
		value: 'delete',
		description: 'Delete files permanently (in batches of up to 100)',
		action: 'Delete files',
		module: deleteFiles,
	},
	{
		name: 'Update Values',
		value: 'updateValues',
		description: 'Change extracted values of a file',
		action: 'Update extracted values of a file',
		module: updateValues,
	},
	{
		name: 'Rerun Extraction',
		value: 'rerunExtraction',
		description: 'Extract the values of a file again against its current schema',
		action: 'Rerun extraction of a file',
		module: rerunExtraction,
	},
	{
		name: 'Report Export Status',
		value: 'reportExportStatus',
		description: 'Tell the service what your system did with a file',
		action: 'Report the export status of a file',
		module: reportExportStatus,
	},
	{
		name: 'Get Preview URL',
		value: 'getPreviewUrl',
		description: 'Create a short-lived link to view a stored file',
		action: 'Get a preview URL of a file',
		module: getPreviewUrl,
	},
	{
		name: 'Download',
		value: 'download',
		description: 'Download a stored file into a binary field',
		action: 'Download a file',
		module: download,
	},
]);
