/**
 * Property: with Claim Across Processes, each upload's callback fires exactly once across
 * three n8n processes that share one workflow's static data (the last save wins, as in n8n), the
 * service delivering in generated waves through the real engine (dev/harness) against the
 * emulator: a wave's deliveries at once (the same callback to several processes, other uploads'
 * callbacks among them), waves one after another (a repeat at another process), a delivery
 * answered 503 sent again to the next process (the service's retries, 5), and claims whose answer
 * is lost (the API applied the write, the reply failed: the transport sends it again and the API
 * replays it). 0 duplicates, 0 lost.
 */
import fc from 'fast-check';

import type { ActiveWebhookTrigger, SharedStaticData } from '../../dev/harness';
import { INVOICE_FILE_NAME, invoiceText } from '../../dev/documents';
import { uploadFile } from '../emulator/test-helpers';
import { useEmulator } from '../node/support';
import { EMULATOR_OPTIONS, activateCallbackTrigger, completedBody, emittedFileIds } from '../callback-trigger/support';
import { fuzzParameters, fuzzTimeout } from './runs';

const emulator = useEmulator(EMULATOR_OPTIONS);

const PROCESSES = 3;
const UPLOADS = 5;
const SERVICE_RETRIES = 5;
const RUNS = 8;

interface Delivery {
	upload: number;
	process: number;
}

const delivery = fc.record({ upload: fc.nat({ max: UPLOADS - 1 }), process: fc.nat({ max: PROCESSES - 1 }) });
const schedule = fc.record({
	waves: fc.array(fc.array(delivery, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
	lostClaimAnswers: fc.nat({ max: 2 }),
});

const uploadIds: string[] = [];
const fileIds = new Map<string, string>();

beforeAll(async () => {
	for (let index = 0; index < UPLOADS; index++) {
		const upload = await uploadFile(emulator, `x${index}-${INVOICE_FILE_NAME}`, `${invoiceText()}Note: across ${index}\n`);
		uploadIds.push(upload.uploadId);
	}
	await emulator.idle();
	for (const file of emulator.state.files.values()) fileIds.set(String(file.uploadId), String(file.fileId));
});

/** One delivery as the service makes it: sent again to the next process while answered 503, at most SERVICE_RETRIES times. */
async function deliver(processes: ActiveWebhookTrigger[], { upload, process }: Delivery): Promise<number> {
	let status = 0;
	for (let attempt = 0; attempt <= SERVICE_RETRIES; attempt++) {
		status = (await processes[(process + attempt) % PROCESSES].post(completedBody(uploadIds[upload]))).status;
		if (status !== 503) break;
	}
	return status;
}

let run = 0;

describe('Claim Across Processes, generated deliveries to three processes', () => {
	it(
		'every upload delivered fires exactly once; every delivery ends answered 200',
		async () => {
			await fc.assert(
				fc.asyncProperty(schedule, async ({ waves, lostClaimAnswers }) => {
					run += 1;
					const shared: SharedStaticData = { value: {} };
					const processes: ActiveWebhookTrigger[] = [];
					for (let index = 0; index < PROCESSES; index++) {
						processes.push(
							await activateCallbackTrigger(
								emulator,
								{ options: { claimAcrossProcesses: true } },
								{ nodeId: `property-${run}`, sharedStaticData: shared, process: `p${index}` },
							),
						);
					}
					try {
						emulator.faults.clear();
						if (lostClaimAnswers > 0) emulator.faults.failNext({ host: 'api', method: 'PATCH', path: /\/files\//, phase: 'after', status: 502, count: lostClaimAnswers });
						const statuses: number[] = [];
						for (const wave of waves) statuses.push(...(await Promise.all(wave.map(async (one) => await deliver(processes, one)))));
						const delivered = new Set(waves.flat().map(({ upload }) => fileIds.get(uploadIds[upload])));
						const emitted = processes.flatMap((trigger) => emittedFileIds(trigger));
						expect(statuses.filter((status) => status !== 200)).toEqual([]);
						expect([...emitted].sort()).toEqual([...delivered].sort());
					} finally {
						await Promise.all(processes.map(async (trigger) => await trigger.close()));
					}
				}),
				fuzzParameters(RUNS, 0.01),
			);
		},
		fuzzTimeout(RUNS, 3_000, 0.01),
	);
});
