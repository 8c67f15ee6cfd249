import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { createPreviewUrl, getFile } from '../../../shared/api';
import { forEachConcurrently } from '../../../shared/concurrency';
import { REVIEW_LIMITS } from '../../../shared/limits';
import { waitClock, withRunScope } from '../../../shared/run';
import { sameSecret } from '../../../shared/sameSecret';
import type { SchemaField } from '../../../shared/schema';
import { fileFields } from '../../../shared/schema';
import { REVIEW_QUERY } from './reviewValuesLink';
import type { PageField, PageFile } from './reviewValuesPage';
import { messagePage, pageHeaders, reviewPage } from './reviewValuesPage';
import type { ReviewState, Send } from './reviewValuesState';
import { claimKey, claimOf, readReviewState, reviewPolicy } from './reviewValuesState';
import { submitReview } from './reviewValuesSubmit';

/**
 * File > Review Values' webhook (docs/dev/review-values.md): GET answers the page, POST takes the
 * review. Every answer is an HTML page written here (never a throw: n8n would end the waiting
 * execution in error); only the holder of the link gets past the secret check, before any API
 * request. The page asks the API afresh each time it is opened: the file's values and fields, and
 * a new preview link (the page is never cached: the link expires).
 */

export async function reviewWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const response = this.getResponseObject();
	const send: Send = (status, page, previewOrigins = []) => {
		if (!response.headersSent) {
			for (const [name, value] of Object.entries(pageHeaders(previewOrigins))) response.setHeader(name, value);
			response.status(status).send(page);
		}
		return { noWebhookResponse: true };
	};
	try {
		return await withRunScope(this, async () => await handle(this, send));
	} catch {
		return send(503, messagePage('Try again in a moment', 'The review could not be handled just now. Nothing was saved; reload the page in a moment.'));
	}
}

async function handle(context: IWebhookFunctions, send: Send): Promise<IWebhookResponseData> {
	const state = readReviewState(context);
	if (!state) return send(404, messagePage('No review here', 'This execution is not waiting for a review.'));
	if (!sameSecret((context.getQueryData() as IDataObject)[REVIEW_QUERY], state.secret)) {
		return send(401, messagePage('Link not valid', 'This link does not open the review of this execution. Use the whole link you were sent.'));
	}
	const claim = claimOf(claimKey(context, state));
	if (claim === 'sent') return send(200, messagePage('Review already sent', 'This review has been sent already. Nothing more to do.'));
	if (claim === 'sending') return send(409, messagePage('Review being sent', 'This review is being sent from another page. Nothing more to do.'));
	if (waitClock.now() >= state.deadline) return send(410, messagePage('Review closed', 'The time for this review has passed. Nothing was saved.'));
	if (context.getRequestObject().method === 'POST') return await submitReview(context, state, send);
	const files = await pageFiles(context, state);
	const origins = files.flatMap((file) => (file.preview ? [new URL(file.preview.url).origin] : []));
	return send(200, reviewPage(files), origins);
}

/** A value as the page's input shows it. */
export function asText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value);
}

function rowsOf(value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	if (typeof value === 'string') {
		try {
			const parsed = JSON.parse(value) as unknown;
			return Array.isArray(parsed) ? parsed : [];
		} catch {
			return [];
		}
	}
	return [];
}

function pageField(field: SchemaField): PageField {
	const tooLong = field.kind !== 'table' && asText(field.current).length > REVIEW_LIMITS.maxValueChars;
	const columns = field.columns.map((column) => ({ name: column.name, kind: column.kind, choices: column.enumValues.slice(0, REVIEW_LIMITS.maxChoices) }));
	const rows =
		field.kind === 'table'
			? rowsOf(field.current)
					.slice(0, REVIEW_LIMITS.maxTableRows)
					.map((row) => field.columns.map((column) => asText(row && typeof row === 'object' ? (row as IDataObject)[column.title] : undefined)))
			: [];
	const tooManyRows = field.kind === 'table' && rowsOf(field.current).length > REVIEW_LIMITS.maxTableRows;
	return {
		name: field.name,
		kind: field.kind,
		readOnly: field.readOnly || field.repeated || tooLong || tooManyRows || field.enumValues.length > REVIEW_LIMITS.maxChoices,
		choices: field.enumValues.length > REVIEW_LIMITS.maxChoices ? [] : field.enumValues,
		text: tooLong ? `${asText(field.current).slice(0, REVIEW_LIMITS.maxValueChars)} …` : asText(field.current),
		columns,
		rows,
	};
}

/** The fields the page shows: hidden ones only when asked; at most REVIEW_LIMITS.maxFields, else all read-only. */
export function shownFields(fields: SchemaField[], includeHidden: boolean): SchemaField[] {
	return fields.filter((field) => includeHidden || !field.hidden);
}

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|tiff?)$/i;

async function pageFile(context: IWebhookFunctions, state: ReviewState, index: number, fileId: string): Promise<PageFile> {
	const policy = reviewPolicy(context, index);
	let fileName = fileId;
	let preview: PageFile['preview'];
	try {
		const file = await getFile(context, fileId, { policy });
		fileName = typeof file.fileName === 'string' && file.fileName ? file.fileName : fileId;
		if (typeof file.fileStoragePath === 'string' && file.fileStoragePath) {
			const url = await createPreviewUrl(context, file.fileStoragePath, { policy });
			const type = typeof file.fileType === 'string' ? file.fileType : '';
			preview = { url: url.href, image: type.startsWith('image/') || IMAGE.test(fileName) };
		}
	} catch {
		// The fields can still be reviewed without the document beside them.
	}
	try {
		const fields = shownFields(await fileFields(context, fileId, policy), state.includeHidden);
		const many = fields.length > REVIEW_LIMITS.maxFields;
		const shown = fields.slice(0, REVIEW_LIMITS.maxFields).map(pageField);
		return {
			fileId,
			fileName,
			preview,
			fields: many ? shown.map((field) => ({ ...field, readOnly: true })) : shown,
			...(many ? { problem: `This file has more than ${REVIEW_LIMITS.maxFields} fields: correct it with Update Values.` } : {}),
		};
	} catch (error) {
		return { fileId, fileName, preview, fields: [], problem: `Its values could not be read: ${(error as Error).message}` };
	}
}

async function pageFiles(context: IWebhookFunctions, state: ReviewState): Promise<PageFile[]> {
	const pages = new Array<PageFile | undefined>(state.files.length);
	await forEachConcurrently(state.files.length, REVIEW_LIMITS.requestConcurrency, async (index) => {
		const fileId = state.files[index];
		if (fileId) pages[index] = await pageFile(context, state, index, fileId);
	});
	return pages.map((page, index) => page ?? { fileId: '', fileName: `Item ${index} (failed before the review)`, fields: [], problem: 'Nothing to review.' });
}

/**
 * The editor's words under "Waiting for input": Review Values' own, else Upload's (`uploadTooltip`,
 * an expression `={{ … }}`), in one expression over $parameter.operation.
 */
export function waitingTooltip(uploadTooltip: string): string {
	const upload = uploadTooltip.startsWith('={{') && uploadTooltip.endsWith('}}') ? uploadTooltip.slice(3, -2).trim() : JSON.stringify(uploadTooltip);
	const review = JSON.stringify(
		'Waiting for a person to send the review (the link is the reviewUrl of File > Get Review Link): the execution resumes with their decisions, or after the Wait Limit with the input items unchanged. Meanwhile it holds no worker; Executions lists it as Waiting.',
	);
	return `={{ $parameter.operation === "reviewValues" ? ${review} : (${upload}) }}`;
}
