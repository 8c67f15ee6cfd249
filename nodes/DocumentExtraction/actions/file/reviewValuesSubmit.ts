import { createHash } from 'crypto';
import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { ExportStatusReport, FieldValue } from '../../../shared/api';
import { reportExportStatusWithKey, updateFormValuesWithKey } from '../../../shared/api';
import { forEachConcurrently } from '../../../shared/concurrency';
import { REVIEW_LIMITS } from '../../../shared/limits';
import { valuesField } from '../../../shared/output/values';
import { shown } from '../../../shared/parameters';
import { waitClock } from '../../../shared/run';
import type { SchemaField } from '../../../shared/schema';
import { convertValue, fileFields } from '../../../shared/schema';
import { messagePage } from './reviewValuesPage';
import type { ReviewState, Send } from './reviewValuesState';
import { claimKey, claimOf, reviewPolicy, setClaim } from './reviewValuesState';

/**
 * The review's submit (docs/dev/review-values.md): one JSON payload (the page's script sends only
 * the fields the person changed, with the kind the page showed). Checked whole before anything is
 * written: every file is the one of its item, a decision for each, every changed field still a
 * field of the file with the same kind, writable, and its value converted by Update Values v2's
 * converter. Then only the changed values of approved files are written, and the execution resumes
 * with one item per input item. Claimed in this process before the first await: a second submit
 * gets the "already sent" page and writes nothing.
 */

interface Change {
	field: string;
	kind: string;
	value?: string;
	columns?: string[];
	rows?: string[][];
}

interface Entry {
	fileId: string;
	decision: 'approve' | 'reject';
	note: string;
	changes: Change[];
}

type Read<T> = { ok: true; value: T } | { ok: false; message: string };

function isRecord(value: unknown): value is IDataObject {
	return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

const isText = (value: unknown): value is string => typeof value === 'string';

function readChange(value: unknown): Change | undefined {
	if (!isRecord(value) || !isText(value.field) || !isText(value.kind)) return undefined;
	if (value.rows !== undefined) {
		const { rows, columns } = value;
		if (!Array.isArray(rows) || !Array.isArray(columns) || !columns.every(isText)) return undefined;
		if (!rows.every((row) => Array.isArray(row) && row.every(isText))) return undefined;
		return { field: value.field, kind: value.kind, columns: columns as string[], rows: rows as string[][] };
	}
	return isText(value.value) ? { field: value.field, kind: value.kind, value: value.value } : undefined;
}

/** The payload, read against the state: the same items, each naming its own file. */
function readPayload(body: unknown, state: ReviewState): Read<Array<Entry | null>> {
	const payload = isRecord(body) ? body.payload : undefined;
	if (!isText(payload) || payload === '') return { ok: false, message: 'The review was not sent whole (the page needs JavaScript). Nothing was saved.' };
	if (payload.length > REVIEW_LIMITS.maxSubmitChars) return { ok: false, message: `The review is larger than ${REVIEW_LIMITS.maxSubmitChars} characters. Nothing was saved.` };
	let parsed: unknown;
	try {
		parsed = JSON.parse(payload) as unknown;
	} catch {
		return { ok: false, message: 'The review could not be read. Nothing was saved.' };
	}
	const files = isRecord(parsed) && Array.isArray(parsed.files) ? parsed.files : undefined;
	if (!files || files.length !== state.files.length) return { ok: false, message: 'The review does not list the files of this execution. Nothing was saved.' };
	const entries: Array<Entry | null> = [];
	for (const [index, fileId] of state.files.entries()) {
		const given: unknown = files[index];
		if (fileId === null) {
			entries.push(null);
			continue;
		}
		if (!isRecord(given) || given.fileId !== fileId) {
			return { ok: false, message: `The review names another file than item ${index}'s (${fileId}). Nothing was saved.` };
		}
		if (given.decision !== 'approve' && given.decision !== 'reject') return { ok: false, message: `Choose Approve or Reject for file ${fileId}. Nothing was saved.` };
		const changes = Array.isArray(given.changes) ? given.changes.map(readChange) : [undefined];
		if (changes.some((change) => change === undefined)) return { ok: false, message: `The changes of file ${fileId} could not be read. Nothing was saved.` };
		const note = isText(given.note) ? given.note.slice(0, REVIEW_LIMITS.maxNoteChars) : '';
		entries.push({ fileId, decision: given.decision, note, changes: changes as Change[] });
	}
	return { ok: true, value: entries };
}

/** Why a change cannot be written, naming the field; or the value to write. */
function planChange(change: Change, live: Map<string, SchemaField>, state: ReviewState, fileId: string): Read<FieldValue & { before: unknown }> {
	const field = live.get(change.field);
	const where = `${shown(change.field)} of file ${fileId}`;
	if (!field || (field.hidden && !state.includeHidden)) return { ok: false, message: `${where} is no longer a field of the file (renamed or removed since the page was opened).` };
	if (field.kind !== change.kind) return { ok: false, message: `${where} changed type since the page was opened: it was ${change.kind}, it is now ${field.kind}.` };
	if (field.readOnly || field.repeated) return { ok: false, message: `${where} cannot be written (read-only, or its title is repeated).` };
	let given: unknown = change.value ?? '';
	if (change.rows) {
		if (change.rows.length > REVIEW_LIMITS.maxTableRows) return { ok: false, message: `${where} has more than ${REVIEW_LIMITS.maxTableRows} rows.` };
		const columns = new Map(field.columns.map((column) => [column.name, column.title]));
		const titles = (change.columns ?? []).map((name) => columns.get(name));
		const gone = (change.columns ?? []).find((_, index) => titles[index] === undefined);
		if (gone !== undefined) return { ok: false, message: `${where}: its column ${shown(gone)} is no longer a column of the table.` };
		given = change.rows.map((row) => Object.fromEntries(row.map((cell, index) => [titles[index] as string, cell])));
	}
	if (!change.rows && change.value?.trim() === '') return { ok: true, value: { title: field.title, value: null, before: field.current ?? null } };
	const converted = convertValue(given, field, true);
	if (!converted.ok) {
		const at = converted.at ? ` (${converted.at})` : '';
		return { ok: false, message: `${where}${at}: expected ${converted.expected}, got ${shown(converted.got)}.` };
	}
	return { ok: true, value: { title: field.title, value: converted.value, before: field.current ?? null } };
}

/** The Idempotency-Key of one write of the review: its run's secret, the item, what is written (the same on a repeated submit). */
function keyOf(state: ReviewState, index: number, written: FieldValue[] | ExportStatusReport): string {
	return createHash('sha256').update(JSON.stringify([state.secret, index, written])).digest('hex').replace(/^(.{8})(.{4})(.{3})(.{3})(.{12}).*$/, '$1-$2-4$3-8$4-$5');
}

export async function submitReview(context: IWebhookFunctions, state: ReviewState, send: Send): Promise<IWebhookResponseData> {
	const key = claimKey(context, state);
	setClaim(key, 'sending');
	try {
		const read = readPayload(context.getBodyData(), state);
		if (!read.ok) {
			setClaim(key, undefined);
			return send(400, messagePage('Review not sent', read.message));
		}
		const entries = read.value;
		const plans = new Array<Array<FieldValue & { before: unknown }>>(entries.length);
		const problems: string[] = [];
		await forEachConcurrently(entries.length, REVIEW_LIMITS.requestConcurrency, async (index) => {
			const entry = entries[index];
			if (!entry || entry.decision === 'reject' || entry.changes.length === 0) return;
			const live = new Map((await fileFields(context, entry.fileId, reviewPolicy(context, index))).map((field) => [field.name, field]));
			const planned = entry.changes.map((change) => planChange(change, live, state, entry.fileId));
			for (const result of planned) if (!result.ok) problems.push(result.message);
			plans[index] = planned.flatMap((result) => (result.ok ? [result.value] : []));
		});
		if (problems.length) {
			setClaim(key, undefined);
			return send(409, messagePage('Review not sent', `${problems.join(' ')} Nothing was saved: reload the page to see the files as they are now.`));
		}
		const at = new Date(waitClock.now()).toISOString();
		const items = new Array<INodeExecutionData>(entries.length);
		await forEachConcurrently(entries.length, REVIEW_LIMITS.requestConcurrency, async (index) => {
			const entry = entries[index];
			if (!entry) {
				items[index] = { json: state.failed[index] ?? { error: `Item ${index} failed before the review` }, pairedItem: { item: index } };
				return;
			}
			const policy = reviewPolicy(context, index);
			const plan = plans[index] ?? [];
			const fields = plan.map(({ title, value }) => ({ title, value }));
			if (fields.length) await updateFormValuesWithKey(context, entry.fileId, fields, { policy, idempotencyKey: keyOf(state, index, fields) });
			items[index] = {
				json: {
					fileId: entry.fileId,
					decision: entry.decision === 'approve' ? 'approved' : 'rejected',
					changes: plan.map(({ title, value, before }) => ({ field: title, before, after: value })) as unknown as IDataObject[],
					note: entry.note,
					reviewedAt: at,
					...(await valuesField(context, entry.fileId, policy, true)),
				},
				pairedItem: { item: index },
			};
		});
		if (state.reportExport) await reportExports(context, state, entries, items);
		setClaim(key, 'sent');
		send(200, messagePage('Review sent', 'Thank you: the review has been sent. You can close this page.'));
		return { noWebhookResponse: true, workflowData: [items] };
	} finally {
		// A failure on the way (the API unreachable): the claim is let go, the reviewer can send again.
		if (claimOf(key) === 'sending') setClaim(key, undefined);
	}
}

/**
 * Options > Report Export Status, once every value of the review is written: once per file
 * (approved: completed; rejected by any of its items: error; the notes as messages), keyed like
 * the values. A report that fails does not undo the review: its items say what was written and
 * what failed, and the execution resumes with the decisions.
 */
async function reportExports(context: IWebhookFunctions, state: ReviewState, entries: Array<Entry | null>, items: INodeExecutionData[]): Promise<void> {
	const byFile = new Map<string, number[]>();
	for (const [index, entry] of entries.entries()) if (entry) byFile.set(entry.fileId, [...(byFile.get(entry.fileId) ?? []), index]);
	const files = [...byFile.entries()];
	await forEachConcurrently(files.length, REVIEW_LIMITS.requestConcurrency, async (n) => {
		const [fileId, indices] = files[n];
		const own = indices.map((index) => entries[index] as Entry);
		const status = own.some((entry) => entry.decision === 'reject') ? 'error' : 'completed';
		const messages = [...new Set(own.map((entry) => entry.note.trim()).filter((note) => note !== ''))];
		const body: ExportStatusReport = { integrationExportStatus: status, ...(messages.length ? { integrationExportMessages: messages } : {}) };
		let exportStatus: IDataObject;
		try {
			const answer = await reportExportStatusWithKey(context, fileId, body, { policy: reviewPolicy(context, indices[0]), idempotencyKey: keyOf(state, indices[0], body) });
			const info = answer.exportInfo ?? {};
			exportStatus = { reported: true, status: info.integrationExportStatus ?? status, messages, updatedAt: info.integrationExportUpdatedAt ?? null };
		} catch (error) {
			const written = indices.reduce((sum, index) => sum + ((items[index].json.changes as unknown[] | undefined)?.length ?? 0), 0);
			const kept = own.some((entry) => entry.decision === 'approve') ? `its ${written} changed value(s) were written` : 'nothing was written';
			exportStatus = {
				reported: false,
				status,
				messages,
				error: `The export status of file ${fileId} could not be set to ${status}: ${(error as Error).message}. The review is kept (${kept}); set the status with File > Report Export Status.`,
			};
		}
		for (const index of indices) items[index].json.exportStatus = { ...exportStatus };
	});
}
