/**
 * Engine harness: runs our nodes inside the real n8n engine (n8n-core's WorkflowExecute,
 * PollContext, LoadOptionsContext, RoutingNode) with the package loaded as n8n loads it.
 * See README.md in this folder.
 */
import './env';

export { HARNESS_WORKFLOW_ID } from './additional-data';
export {
	binaryFilePath,
	createBinaryData,
	createBinaryItem,
	mimeTypeOf,
	readBinary,
	readBinaryStream,
} from './binary';
export type { BinaryItemSource } from './binary';
export { PackageBuildError, buildLockPath, ensureBuilt } from './build';
export type { BinaryDataMode } from './container';
export { getBinaryDataService, harnessLogger, useBinaryDataMode } from './container';
export { testCredential } from './credential-test';
export { HarnessCredentialNotFoundError, HarnessCredentialsHelper } from './credentials-helper';
export { DEFAULT_NODE_NAME, START_NODE_NAME, runNode, runWorkflow } from './engine';
export type { ExecutionObserver, PreparedExecution } from './engine';
export { startWaitingWebhooks } from './waiting';
export type { WaitingCall, WaitingWebhooks, WaitingWebhooksOptions } from './waiting';
export type {
	RunNodeOptions,
	RunNodeResult,
	RunWorkflowOptions,
	RunWorkflowResult,
	WorkflowJson,
	WorkflowNodeJson,
} from './engine';
export type { LogLine } from './logger';
export { listSearch, loadOptions, resourceMapping } from './methods';
export type { NodeMethodOptions } from './methods';
export { DEFAULT_TRIGGER_NAME, activatePollTrigger, pollTrigger } from './poll';
export type { ActivePollTrigger, PollTriggerOptions, PollTriggerResult, StaticDataHost } from './poll';
export { REPO_ROOT, STAND_IN_NODE_TYPES, loadPackage } from './registry';
export type { LoadedPackage, PackageFiles } from './registry';
export { processPackageDir } from './processes';
export { openSession } from './session';
export { forgetPackageRateLimits, installFakeWaitClock, installRecordingWaitClock } from './wait-clock';
export type { FakeWaitClock, RecordingWaitClock } from './wait-clock';
export { activateWebhookTrigger } from './webhook';
export type { ActiveWebhookTrigger, SharedStaticData, WebhookCall, WebhookTriggerOptions } from './webhook';
