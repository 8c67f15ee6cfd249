import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { REVIEW_LIMITS } from '../../../shared/limits';
import { requireBoolean, requireNumber } from '../../../shared/parameters';
import { waitClock } from '../../../shared/run';
import { fileIdParameter } from '../../descriptions/common';
import type { ItemPolicy } from '../../../shared/run';
import type { PreparedRun } from '../types';
import { readFileId } from './records';
import { reviewResumeUrl, reviewSecret, reviewUrl } from './reviewValuesLink';
import type { ReviewState } from './reviewValuesState';
import { writeReviewState } from './reviewValuesState';

/**
 * File > Review Values (docs/dev/review-values.md): the execution waits, holding no worker, until
 * a person has sent the review of its files on one page (reviewValuesWebhook.ts), or until the
 * Wait Limit, when n8n passes the input items through unchanged. The execute() side: every item's
 * file is read and checked, the run's state written into the node's context, the execution put to
 * wait.
 */

const properties: INodeProperties[] = [
	{
		...fileIdParameter,
		description: 'The file to review. Every item of the execution is reviewed on the same page.',
	},
	{
		displayName:
			'The page\'s link is the reviewUrl of File > Get Review Link (put it before the message that sends the link). The execution waits here until the review is sent, or until the Wait Limit; past it the input items come out unchanged (no "decision").',
		name: 'reviewNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Wait Limit (Hours)',
		name: 'waitHours',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: REVIEW_LIMITS.maxWaitHours },
		default: 72,
		description: 'How long the page can be sent. Past it the execution goes on with the input items unchanged.',
	},
	{
		displayName: 'Include Hidden Fields',
		name: 'includeHidden',
		type: 'boolean',
		default: false,
		description: 'Whether the page shows (and lets the reviewer correct) the fields the file type marks as hidden',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Report Export Status',
				name: 'reportExportStatus',
				type: 'boolean',
				default: false,
				description:
					"Whether the review also sets each file's export status in the service once its values are written: approved as Completed, rejected as Error, with the reviewer's note as its message",
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['reviewValues'] } }, properties);

interface ReviewRun {
	url: string;
	secret: string;
	files: string[];
}

/** Before the first item: the link, the secret; refused for an agent and without a usable resume URL. */
export async function prepareRun(this: IExecuteFunctions): Promise<PreparedRun<ReviewRun>> {
	const count = this.getInputData().length;
	if (count > REVIEW_LIMITS.maxFiles) {
		throw new NodeOperationError(this.getNode(), `One review page lists at most ${REVIEW_LIMITS.maxFiles} files; this run has ${count} items`, {
			description: 'Split the items (Loop Over Items) so that each execution reviews fewer files.',
		});
	}
	const resumeUrl = await reviewResumeUrl(this);
	const secret = await reviewSecret(this, resumeUrl.href);
	return { run: { url: reviewUrl(resumeUrl, secret), secret, files: new Array<string>(count) }, finish: finishReviewRun };
}

/** Each item: its file ID, checked; its waiting item says where the page is. */
export async function execute(this: IExecuteFunctions, itemIndex: number, _policy: ItemPolicy, run: ReviewRun): Promise<INodeExecutionData[]> {
	const fileId = readFileId(this, itemIndex);
	run.files[itemIndex] = fileId;
	return [{ json: { fileId, status: 'waiting for review', reviewUrl: run.url } }];
}

/** After the last item: the state into the node's context, then the wait. An item that failed (Continue On Fail) is left out of the page. */
async function finishReviewRun(this: IExecuteFunctions, outputs: INodeExecutionData[][], run: ReviewRun): Promise<INodeExecutionData[][]> {
	const hours = requireNumber(this, 0, 'Wait Limit (Hours)', this.getNodeParameter('waitHours', 0, REVIEW_LIMITS.defaultWaitHours), {
		min: 0.01,
		max: REVIEW_LIMITS.maxWaitHours,
	}, `a number of hours up to ${REVIEW_LIMITS.maxWaitHours}`);
	const deadline = waitClock.now() + hours * 3600 * 1000;
	const state: ReviewState = {
		v: 1,
		secret: run.secret,
		deadline,
		includeHidden: requireBoolean(this, 0, 'Include Hidden Fields', this.getNodeParameter('includeHidden', 0, false)),
		reportExport: requireBoolean(this, 0, 'Report Export Status', (this.getNodeParameter('options', 0, {}) as IDataObject).reportExportStatus ?? false),
		files: outputs.map((output, index) => (output[0]?.json?.status === 'waiting for review' ? (run.files[index] ?? null) : null)),
		failed: outputs.map((output) => (output[0]?.json?.status === 'waiting for review' ? null : ((output[0]?.json ?? {}) as IDataObject))),
	};
	writeReviewState(this, state);
	await this.putExecutionToWait(new Date(deadline));
	return [outputs.flat()];
}
