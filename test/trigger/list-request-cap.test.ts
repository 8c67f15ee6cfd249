/**
 * The trigger's cap on list requests per poll (TRIGGER_LIMITS.maxListRequestsPerPoll, 200) holds
 * for every request of the walk, the check of the file before a page of a large tie included:
 * before the paging guard, that check was sent past the cap (201 requests).
 */
import { addFiles } from '../../dev/emulator/bulk-files';
import { ActiveTrigger, MINUTE, iso, listRequests, useEmulator } from './support';

const emulator = useEmulator({}, 'test');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 24 * 60 * MINUTE;
const TIE = T0 + 10 * MINUTE;

it('a poll through a tie of 10,200 files that it passes over sends 200 list requests, not one more, and moves its cursor over what it read', async () => {
	// Every page of the tie is followed by a check of the file before the next page: 2 requests a page.
	addFiles(emulator.state, 10_200, { createdAtMs: () => TIE, fileClass: 'Invoice' });
	const trigger = new ActiveTrigger(emulator, {
		event: 'fileProcessed',
		startFrom: 'date',
		startDate: iso(T0),
		filters: { fileClasses: ['Receipt'] },
	});

	const poll = await trigger.poll();

	expect(poll.error).toBeUndefined();
	// It stopped at its bound, quietly: no request refused, nothing to warn about.
	expect(poll.logs.filter((line) => line.level === 'warn')).toEqual([]);
	expect(poll.items).toEqual([]);
	expect(listRequests(emulator)).toHaveLength(200);
	const cursor = trigger.staticData.cursor as { at: string; count?: number };
	expect(cursor.at).toBe(iso(TIE));
	expect(cursor.count).toBe(10_000);
});
