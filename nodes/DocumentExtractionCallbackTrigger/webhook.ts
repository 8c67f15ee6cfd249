import type { IDataObject, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { FileRecord } from '../shared/api';
import { forEachConcurrently } from '../shared/concurrency';
import { asNodeError } from '../shared/nodeError';
import { CALLBACK_LIMITS, OUTPUT_LIMITS } from '../shared/limits';
import type { ItemOptions } from '../shared/output/documentItem';
import { buildItem } from '../shared/output/documentItem';
import { valuesField } from '../shared/output/values';
import { callbackPolicy } from '../shared/requestPolicy';
import type { Deadline, RequestPolicy } from '../shared/run';
import { apiKeysOf, waitClock, withRunScope } from '../shared/run';
import type { Answerable, CallbackScope } from '../shared/callbacks';
import { RETRY_LATER, answerCall as answer, claimAcrossProcesses, readCallback, scopeOf } from '../shared/callbacks';
import type { CallPolicies, CheckedVerdict, Emission } from './check';
import { checkCallback, keyOf } from './check';
import { readHistory, writeHistory } from './history';
import type { CallbackSettings } from './settings';
import { readCallbackSettings } from './settings';

const NO_RESPONSE: IWebhookResponseData = { noWebhookResponse: true };

/**
 * One call to the trigger's URL. It never throws (n8n would answer 500 and run the workflow with an
 * empty item). A call that emits is answered by n8n, with the verdict's body, once webhook() has
 * returned the items: n8n 2.x answers after the execution is created (and queued, in queue mode),
 * so a callback answered 200 is never one that a stopping n8n drops between the answer and the
 * run. Every other call the trigger answers itself (a status of its own: 4xx, 503). See
 * docs/callback-trigger.md for every answer.
 */
export async function handleCallback(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	let response: Answerable | undefined;
	try {
		response = context.getResponseObject() as unknown as Answerable;
		const answerable = response;
		return await withRunScope(context, async () => await handle(context, answerable));
	} catch (error) {
		context.logger.error(
			`Document Extraction Callback Trigger "${context.getNode().name}": a callback could not be handled and was answered 503, so that the service calls again. Cause: ${asNodeError(context, error).message}`,
		);
		if (response === undefined) return { webhookResponse: { received: false } };
		answer(response, RETRY_LATER, { received: false, outcome: 'retryLater', reason: 'The trigger could not handle this callback' });
		return NO_RESPONSE;
	}
}

async function handle(context: IWebhookFunctions, response: Answerable): Promise<IWebhookResponseData> {
	const calledAt = waitClock.now();
	const deadline = {
		at: calledAt + CALLBACK_LIMITS.answerWithinMs,
		note: `A callback is answered within ${CALLBACK_LIMITS.answerWithinMs / 1000} s (the service waits 30 s at most)`,
	};
	let settings: CallbackSettings;
	let policies: CallPolicies;
	try {
		settings = readCallbackSettings(context);
		policies = callbackPolicy(context);
	} catch (error) {
		context.logger.error(
			`Document Extraction Callback Trigger "${context.getNode().name}": a callback was answered 503 (the service will call again) because a parameter is invalid: ${asNodeError(context, error).message}`,
		);
		answer(response, RETRY_LATER, { received: true, outcome: 'retryLater', reason: 'The trigger is not configured correctly' });
		return NO_RESPONSE;
	}

	const read = readCallback(context.getBodyData());
	if (!read.ok) {
		answer(response, 400, { received: false, outcome: 'invalid', reason: read.reason });
		return NO_RESPONSE;
	}
	const { hint } = read;
	const asked =
		hint.kind === 'step'
			? settings.events.has('processingStep')
			: settings.events.has('fileProcessed') || settings.events.has('processingFailed');
	if (!asked || (hint.kind === 'step' && hint.step === undefined)) {
		answer(response, 200, { received: true, outcome: 'ignored', reason: hint.kind === 'step' ? 'Steps are not asked for' : 'Outcomes are not asked for' });
		return NO_RESPONSE;
	}

	// A test call (the editor's test URL: n8n's mode "manual") neither reads nor writes what
	// production handled: it fires for an upload production has handled, and production still fires for it.
	const test = context.getMode() === 'manual';
	const key = keyOf(hint);
	const staticData = test ? undefined : context.getWorkflowStaticData('node');
	const history = staticData ? readHistory(staticData) : [];
	const scope = scopeOf<CheckedVerdict>(context.getWorkflow().id ?? '', context.getNode().id, test);
	if (scope.remembers(key) || history.includes(key)) {
		answer(response, 200, { received: true, outcome: 'duplicate' });
		return NO_RESPONSE;
	}
	if (!scope.checking(key)) {
		const recalled = scope.recall(hint.uploadId, calledAt);
		if (recalled) {
			answer(response, recalled.status, recalled.body);
			return NO_RESPONSE;
		}
		if (!scope.admits()) {
			answer(response, RETRY_LATER, { received: true, outcome: 'retryLater', reason: 'The trigger is checking as many callbacks as it may at once' });
			return NO_RESPONSE;
		}
	}

	const { verdict, first } = await scope.once(key, settings.historySize, async () => {
		const checked = await checkCallback(context, hint, settings, policies, deadline);
		// A test call claims nothing: it fires whatever production handled (and production's claims would refuse it).
		return settings.claimAcrossProcesses && !test ? await claimed(context, key, checked, policies, deadline) : checked;
	});
	if (!first) {
		// Another delivery of this callback ran the check: it emits (or not); this one only answers.
		if (verdict.emission) answer(response, 200, { received: true, outcome: 'duplicate' });
		else answer(response, verdict.status, verdict.body);
		return NO_RESPONSE;
	}
	if (verdict.handled && staticData) writeHistory(staticData, history, scope.recentKeys(), settings.historySize);
	if (!verdict.emission) {
		if (!verdict.handled) rememberAnswer(scope, hint.uploadId, verdict, waitClock.now());
		answer(response, verdict.status, verdict.body);
		return NO_RESPONSE;
	}
	// The values are read before the answer, by a deadline of their own that leaves n8n time to start the run.
	const valuesDeadline = {
		at: calledAt + CALLBACK_LIMITS.valuesWithinMs,
		note: `The values of a callback's files are read within ${CALLBACK_LIMITS.valuesWithinMs / 1000} s of the call (the service waits 30 s at most); read them later with File > Get Values`,
	};
	const items = await itemsOf(context, verdict.emission, settings, policies.confirmed, valuesDeadline);
	return { workflowData: [items], webhookResponse: verdict.body };
}

/**
 * Claim Across Processes: a checked callback that would emit is claimed at the service first
 * (shared/callbacks/claim.ts). Claimed by another process: handled, a duplicate. Not known (the
 * write failed, or another process's claim is in flight): 503, the service calls again. An upload
 * without a file to write the claim to fires as without the option (logged).
 */
async function claimed(context: IWebhookFunctions, key: string, verdict: CheckedVerdict, policies: CallPolicies, deadline: Deadline): Promise<CheckedVerdict> {
	if (!verdict.emission) return verdict;
	const name = `Document Extraction Callback Trigger "${context.getNode().name}"`;
	if (verdict.claimFileId === undefined) {
		context.logger.warn(`${name}: callback ${key} could not be claimed across n8n processes (the upload has no file to write the claim to); it fires as without the claim.`);
		return verdict;
	}
	const workflowId = context.getWorkflow().id ?? '';
	const target = { subject: [workflowId, context.getNode().id, key], fileId: verdict.claimFileId, label: `n8n workflow ${workflowId}, callback ${key}` };
	const { outcome, reason } = await claimAcrossProcesses(context, target, { policy: policies.confirmed, deadline });
	if (outcome === 'ours') return verdict;
	if (outcome === 'theirs') return { status: 200, body: { received: true, outcome: 'duplicate', reason: 'Another n8n process claimed this callback' }, handled: true };
	context.logger.warn(`${name}: callback ${key} could not be claimed across n8n processes, answered 503 so that the service calls again. Cause: ${reason ?? 'unknown'}`);
	return { status: RETRY_LATER, body: { received: true, outcome: 'retryLater', reason: 'The trigger could not claim this callback at the service just now' }, handled: false };
}

/**
 * After a check that emitted nothing, calls about the same upload are answered from memory for a
 * while, without a request: an upload the API does not know, 404 for CALLBACK_LIMITS.unknownUploadMs;
 * anything else (still processing, the API unavailable, a step it does not list), 503 with
 * Retry-After for CALLBACK_LIMITS.recentAnswerMs, so that the service calls again after it.
 */
function rememberAnswer(scope: CallbackScope<CheckedVerdict>, uploadId: string, verdict: CheckedVerdict, now: number): void {
	if (verdict.status === 404) {
		scope.rememberAnswer(uploadId, { status: 404, body: verdict.body, until: now + CALLBACK_LIMITS.unknownUploadMs });
		return;
	}
	scope.rememberAnswer(uploadId, {
		status: RETRY_LATER,
		body: { received: true, outcome: 'retryLater', reason: 'The API was asked about this upload moments ago; send the callback again later' },
		until: now + CALLBACK_LIMITS.recentAnswerMs,
	});
}

/**
 * The items of an emission: processed files (with their values when asked, read by `deadline`:
 * a file whose values cannot be read by then is still emitted, with `valuesError`),
 * then failed files, or a step. Each is built as the polling trigger builds its items
 * (output/documentItem.ts: bounded depth, no secrets, never throwing), so neither trigger emits
 * what the other would refuse; what was cut or could not be made into an item is logged.
 */
async function itemsOf(
	context: IWebhookFunctions,
	emission: Emission,
	settings: CallbackSettings,
	policy: RequestPolicy,
	deadline: Deadline,
): Promise<INodeExecutionData[]> {
	const extras = await valuesOf(context, emission.processed, settings.includeValues, policy, deadline);
	const options: ItemOptions = { secrets: apiKeysOf(context) };
	const built = [
		...emission.processed.map((file, index) => buildItem(file, extras[index], options)),
		...emission.failed.map((failed) => buildItem(failed, undefined, options)),
		...emission.steps.map((step) => buildItem(step, undefined, { ...options, fileKeyOrder: false })),
	];
	const cut = built.filter(({ report }) => report.cut).length;
	const failed = built.filter(({ report }) => report.failed).length;
	if (cut + failed > 0) {
		context.logger.warn(
			`Document Extraction Callback Trigger "${context.getNode().name}": the service answered what the trigger could not use as sent: ${cut} item(s) had values nested more than ${OUTPUT_LIMITS.maxItemDepth} levels deep, replaced by a marker (see triggerNotes); ${failed} record(s) could not be made into items (each emitted with an error field).`,
		);
	}
	return built.map(({ item }) => item);
}

async function valuesOf(
	context: IWebhookFunctions,
	files: FileRecord[],
	includeValues: boolean,
	policy: RequestPolicy,
	deadline: Deadline,
): Promise<Array<IDataObject | undefined>> {
	const extras: Array<IDataObject | undefined> = files.map(() => undefined);
	if (!includeValues) return extras;
	await forEachConcurrently(files.length, CALLBACK_LIMITS.valuesConcurrency, async (index) => {
		try {
			extras[index] = await valuesField(context, files[index].fileId, policy, true, undefined, deadline);
		} catch (error) {
			const message = asNodeError(context, error).message;
			extras[index] = { valuesError: message };
			context.logger.warn(
				`Document Extraction Callback Trigger "${context.getNode().name}": the values of file ${String(files[index].fileId)} could not be read; it is emitted without them (valuesError). Cause: ${message}`,
			);
		}
	});
	return extras;
}
