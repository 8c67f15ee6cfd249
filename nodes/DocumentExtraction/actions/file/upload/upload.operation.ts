import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdSource } from '../../../../shared/api';
import { ENDPOINTS, endpointName, requireServiceId } from '../../../../shared/api';
import { withLeadingKeys } from '../../../../shared/output/keyOrder';
import { requireBoolean, requireText } from '../../../../shared/parameters';
import { multipartUpload } from './multipart';
import type { UploadOptions } from './parameters';
import { multipartSettings, uploadBody, uploadSource, waitSettings } from './parameters';
import { singleUpload } from './single';
import { waitForUpload } from './wait';
import { isZipUpload, uploadResults } from './zipMembers';
import type { ItemPolicy } from '../../../../shared/run';

/**
 * File > Upload (docs/dev/api-contract.md#upload): the upload request (single, or multipart for
 * a large file), the bytes to storage, then, with Wait for Completion, the upload status until
 * processing ends, and an item per processed file (a ZIP: per member) with its values.
 *
 *   description.ts  the parameters as the editor shows them
 *   parameters.ts   reading and checking them, the request body
 *   single.ts       POST /files/upload and one PUT
 *   multipart.ts    initiation, the parts, completion (partPlan.ts checks the service's part plan)
 *   replay.ts       the replay guard of both: never send the bytes of an upload twice
 *   wait.ts         Wait for Completion
 *   zipMembers.ts   the output items, per file or ZIP member
 */
export { description } from './description';

/** Where the multipart upload ID comes from (named when it is not an ID). */
const MULTIPART_ANSWER_ID: IdSource = {
	what: 'upload ID',
	source: `The multipart upload's answer (${endpointName(ENDPOINTS.initiateMultipartUpload)})`,
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = requireText(
		this,
		itemIndex,
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex),
	);
	const waitForCompletion = requireBoolean(
		this,
		itemIndex,
		'Wait for Completion',
		this.getNodeParameter('waitForCompletion', itemIndex, true),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as UploadOptions;
	const { source, fileName, fileType } = await uploadSource(this, itemIndex, binaryPropertyName, options);
	const body = uploadBody(this, itemIndex, fileName, fileType, options);
	const { pollIntervalMs, timeoutMs } = waitSettings(this, itemIndex, options);
	const multipart = multipartSettings(this, itemIndex, options, source.fileSize);

	let uploadInfo: IDataObject;
	let uploadId: string;
	if (multipart) {
		uploadInfo = await multipartUpload.call(this, { body, source, settings: multipart, fileLabel: `"${fileName}"`, policy });
		uploadId = requireServiceId(this, uploadInfo.uploadId, 'uuid', MULTIPART_ANSWER_ID, itemIndex);
	} else {
		const upload = await singleUpload(this, policy, body, source);
		uploadInfo = upload;
		uploadId = upload.uploadId;
	}
	if (!waitForCompletion) {
		return [{ json: withLeadingKeys({ ...uploadInfo, fileName, fileType, fileSize: source.fileSize, status: 'uploaded' }) }];
	}

	const progress = await waitForUpload.call(this, {
		uploadId,
		fileName,
		expectZip: isZipUpload(fileName, fileType),
		pollIntervalMs,
		timeoutMs,
		policy,
	});
	const includeValues = requireBoolean(
		this,
		itemIndex,
		'Include Extracted Values',
		this.getNodeParameter('includeExtractedValues', itemIndex, true),
	);
	const simplify = requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	return await uploadResults.call(this, progress, { uploadId, fileName, includeValues, simplify, policy });
}
