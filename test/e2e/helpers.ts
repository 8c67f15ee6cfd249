/** Small helpers of the end-to-end suites: which n8n, direct uploads to the emulator and waiting. */
import { N8N_VERSION, ensureN8n, type N8nRuntime } from '../../dev/n8n/n8n-runtime';
import type { N8nInstance } from '../../dev/n8n/n8n-launcher';
import { runWorkflow, waitForExecution, type ExecutionRecord } from '../../dev/n8n/n8n-stack';

export { uploadToEmulator } from '../../dev/emulator/client';

/**
 * The n8n the end-to-end suites run: $N8N_E2E_VERSION (a key of N8N_VERSIONS in
 * dev/n8n/n8n-runtime.ts, e.g. 1.123.81, which runs on Node 22), else 2.41.1 on Node 24.
 */
export function e2eN8nVersion(): string {
	return process.env.N8N_E2E_VERSION || N8N_VERSION;
}

/**
 * What an n8n version needs over the launcher's headlessEnv(): n8n 1.x has no module
 * "mcp-registry" and refuses to start when N8N_DISABLED_MODULES names it (it has no catalogue to fetch).
 */
export function versionEnv(runtime: N8nRuntime): Record<string, string> {
	return runtime.n8nVersion.startsWith('1.') ? { N8N_DISABLED_MODULES: '' } : {};
}

/**
 * Starts a saved workflow from its trigger, as the editor's "Execute workflow" does, on any n8n:
 * 2.x takes the trigger's name (dev/n8n/n8n-stack.ts runWorkflow); 1.x also wants the whole
 * workflow in the body (`workflowData`). Returns the execution id.
 */
export async function runWorkflowOn(runtime: N8nRuntime, n8n: N8nInstance, workflowId: string, triggerName: string): Promise<string> {
	if (!runtime.n8nVersion.startsWith('1.')) return await runWorkflow(n8n, workflowId, triggerName);
	const workflowData = await n8n.rest<Record<string, unknown>>(`/workflows/${workflowId}`);
	const started = await n8n.rest<{ executionId?: string }>(`/workflows/${workflowId}/run`, {
		body: { workflowData, triggerToStartFrom: { name: triggerName } },
	});
	if (!started.executionId) throw new Error(`n8n started no execution of ${workflowId}: ${JSON.stringify(started)}`);
	return started.executionId;
}

/**
 * waitForExecution, then until its data is there: n8n 1.x writes an ended execution's status and
 * its data in two steps, so a read in between sees "success" with no run data.
 */
export async function waitForExecutionData(n8n: N8nInstance, executionId: string, timeoutMs = 300_000): Promise<ExecutionRecord> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await waitForExecution(n8n, executionId, Math.max(1000, deadline - Date.now()));
		const { runData, error } = execution.data?.resultData ?? { runData: {} };
		if (error || Object.keys(runData ?? {}).length > 0 || Date.now() > deadline) return execution;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** ensureN8n for e2eN8nVersion() (installed by the global setup, so here it returns at once). */
export async function e2eRuntime(): Promise<N8nRuntime> {
	return await ensureN8n({ n8nVersion: e2eN8nVersion(), log: (line) => process.stderr.write(`[e2e] ${line}\n`) });
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, intervalMs = 500): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

export function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
