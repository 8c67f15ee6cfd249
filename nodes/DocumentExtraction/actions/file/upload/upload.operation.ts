import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdSource } from '../../../../shared/api';
import { ENDPOINTS, endpointName, requireServiceId, withoutField } from '../../../../shared/api';
import { withLeadingKeys } from '../../../../shared/output/keyOrder';
import { invalidParameter, requireBoolean, requireText } from '../../../../shared/parameters';
import { multipartUpload } from './multipart';
import type { UploadOptions } from './parameters';
import { multipartSettings, uploadBody, uploadSource, waitSettings } from './parameters';
import { singleUpload } from './single';
import { waitForUpload } from './wait';
import { isZipUpload, uploadResults } from './zipMembers';
import type { ItemPolicy } from '../../../../shared/run';
import { limitsOfPolicy } from '../../../../shared/run';
import type { UploadRun } from './callback/run';
import { callbackUrlFor, prepareUploadRun, waitingItem } from './callback/run';

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
 *   wait.ts         Wait for Completion, Wait Mode "Poll the Service"
 *   callback/       Wait Mode "When the Service Calls Back": run.ts (before and after the items:
 *                   the resume URL, each upload's callback URL, parking the execution), state.ts
 *                   (what the waiting execution keeps), webhook.ts (the callbacks), progress.ts
 *                   (what a process knows of a waiting execution), results.ts (the output after
 *                   the wait), webhooks.ts (the node's restart webhook)
 *   zipMembers.ts   the output items, per file or ZIP member
 */
export { description } from './description';

/** Before the first item: each item's Wait Mode, and whether the run waits for callbacks (then checked, and finished after the last item). */
export const prepareRun = prepareUploadRun;

/** Where the multipart upload ID comes from (named when it is not an ID). */
const MULTIPART_ANSWER_ID: IdSource = {
	what: 'upload ID',
	source: `The multipart upload's answer (${endpointName(ENDPOINTS.initiateMultipartUpload)})`,
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: ItemPolicy,
	run: UploadRun,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = requireText(
		this,
		itemIndex,
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex),
	);
	const waitMode = run.waitModes[itemIndex];
	const options = this.getNodeParameter('options', itemIndex, {}) as UploadOptions;
	const { source, fileName, fileType } = await uploadSource(this, itemIndex, binaryPropertyName, options);
	const body = uploadBody(this, itemIndex, fileName, fileType, options);
	const { pollIntervalMs, timeoutMs } = waitSettings(this, itemIndex, options);
	const multipart = multipartSettings(this, itemIndex, options, source.fileSize);
	const includeValues = () => requireBoolean(this, itemIndex, 'Include Extracted Values', this.getNodeParameter('includeExtractedValues', itemIndex, true));
	const simplify = () => requireBoolean(this, itemIndex, 'Simplify', this.getNodeParameter('simplify', itemIndex, true));
	const callbackRun = waitMode === 'callback' ? run.callback : undefined;
	if (callbackRun) {
		// The wait gives each upload its own callback URL: one of the user's would take its place.
		if (body.callbackURL !== undefined) {
			throw invalidParameter(this, itemIndex, 'Callback URL', body.callbackURL, 'no Callback URL: with Wait Mode "When the Service Calls Back" the node sends its own');
		}
		body.callbackURL = callbackUrlFor(callbackRun, itemIndex);
	}
	// Checked before the upload where the results are read after the wait.
	const resultSettings = callbackRun ? { includeValues: includeValues(), simplify: simplify() } : undefined;

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
	if (waitMode === 'none') {
		// Without the callback URL: it is the key's default (often a Callback Trigger's URL, which any caller can use) or the user's own; callbackURLSource tells which.
		return [{ json: withLeadingKeys({ ...withoutField(uploadInfo, 'callbackURL'), fileName, fileType, fileSize: source.fileSize, status: 'uploaded' }) }];
	}
	if (callbackRun && resultSettings) {
		const expectZip = isZipUpload(fileName, fileType);
		callbackRun.items.set(itemIndex, { item: { uploadId, fileName, expectZip, ...resultSettings, limits: limitsOfPolicy(policy) }, timeoutMs });
		return [{ json: withLeadingKeys({ ...waitingItem(uploadInfo), fileName, fileType, fileSize: source.fileSize }) }];
	}

	const progress = await waitForUpload.call(this, {
		uploadId,
		fileName,
		expectZip: isZipUpload(fileName, fileType),
		pollIntervalMs,
		timeoutMs,
		policy,
	});
	return await uploadResults.call(this, progress, { uploadId, fileName, includeValues: includeValues(), simplify: simplify(), policy });
}
