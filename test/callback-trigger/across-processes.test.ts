/**
 * Exactly once across n8n processes (issue 39 section 2): two n8n processes (main and an `n8n
 * webhook` process, or two webhook processes) modelled as two copies of the package (their memory
 * apart, dev/harness/processes.ts) serving one workflow's trigger and sharing its static data,
 * saved as n8n saves it: the last save wins. Without Claim Across Processes a key one process
 * saved can be overwritten by the other's save and a repeat then fires again; with it, the
 * service's Idempotency-Key decides which process fires.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { ActiveWebhookTrigger, SharedStaticData } from '../../dev/harness';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, completedBody, duplicatesOf, emittedFileIds } from './support';

const emulator = useEmulator(EMULATOR_OPTIONS);

const CLAIM = { options: { claimAcrossProcesses: true } };

async function uploads(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let index = 0; index < count; index++) ids.push((await uploadFile(emulator, `p${index}-${INVOICE_FILE_NAME}`, `${invoiceText()}Note: ${index}\n`)).uploadId);
	return ids;
}

/** Two processes of one workflow: the same node (id, name, webhook id), their own memory, one static data. */
async function twoProcesses(parameters: INodeParameters, run: string): Promise<[ActiveWebhookTrigger, ActiveWebhookTrigger]> {
	const shared: SharedStaticData = { value: {} };
	const options = { nodeId: `across-${run}`, sharedStaticData: shared };
	return [
		await activateCallbackTrigger(emulator, parameters, { ...options, process: `${run}-a` }),
		await activateCallbackTrigger(emulator, parameters, { ...options, process: `${run}-b` }),
	];
}

function allEmitted(processes: ActiveWebhookTrigger[]): string[] {
	return processes.flatMap((trigger) => emittedFileIds(trigger));
}

function claimWrites(): IDataObject[] {
	return emulator.requests.filter((entry) => entry.host === 'api' && entry.method === 'PATCH' && /\/files\//.test(entry.path)) as unknown as IDataObject[];
}

describe('the Callback Trigger on two n8n processes sharing static data', () => {
	it('regression: A handles X while B handles Y, the last save drops X, X repeated at B is a duplicate with the claim', async () => {
		const [a, b] = await twoProcesses(CLAIM, 'lost-save');
		const [x, y] = await uploads(2);
		await Promise.all([a.post(completedBody(x)), b.post(completedBody(y))]);
		// Whichever save came last, one of the two keys is gone from static data (n8n keeps one save).
		expect((a.staticData().handled as string[]).length).toBe(1);
		expect(await b.post(completedBody(x))).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
		expect(await a.post(completedBody(y))).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
		const emitted = allEmitted([a, b]);
		expect(emitted).toHaveLength(2);
		expect(duplicatesOf(emitted)).toEqual([]);
		// The repeat that found no key healed static data: both keys are there again.
		expect(new Set(a.staticData().handled as string[])).toEqual(new Set([`u:${x}`, `u:${y}`]));
	});

	it('without the claim the same sequence fires X (or Y) twice: the figure docs/callback-trigger.md gives', async () => {
		const [a, b] = await twoProcesses({}, 'unclaimed');
		const [x, y] = await uploads(2);
		await Promise.all([a.post(completedBody(x)), b.post(completedBody(y))]);
		await b.post(completedBody(x));
		await a.post(completedBody(y));
		expect(duplicatesOf(allEmitted([a, b]))).toHaveLength(1);
		expect(claimWrites()).toEqual([]);
	});

	it('one callback delivered to both processes at the same moment fires once with the claim; each process that checks it writes once, the later write refused', async () => {
		const [a, b] = await twoProcesses(CLAIM, 'at-once');
		const ids = await uploads(3);
		emulator.requests.length = 0;
		const calls = await Promise.all(ids.flatMap((id) => [a.post(completedBody(id)), b.post(completedBody(id))]));
		expect(calls.map((call) => call.status)).toEqual(calls.map(() => 200));
		const emitted = allEmitted([a, b]);
		expect(emitted).toHaveLength(3);
		expect(duplicatesOf(emitted)).toEqual([]);
		// Each upload's claim was written by the process that won; the other's write was refused (422), not applied.
		expect(claimWrites()).toHaveLength(6);
		const exportStatuses = await Promise.all(ids.map(async (id) => (await b.post(completedBody(id))).body));
		expect(exportStatuses).toEqual(ids.map(() => ({ received: true, outcome: 'duplicate' })));
	});

	it('without the claim, one callback delivered to both processes at the same moment fires twice (the claim is per process)', async () => {
		const [a, b] = await twoProcesses({}, 'at-once-unclaimed');
		const [id] = await uploads(1);
		await Promise.all([a.post(completedBody(id)), b.post(completedBody(id))]);
		expect(allEmitted([a, b])).toHaveLength(2);
	});
});
