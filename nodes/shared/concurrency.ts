/**
 * Runs `task(0)` … `task(count - 1)` with at most `limit` of them running at once, starting them
 * in index order.
 *
 * After a task fails, or once `stopped()` answers true, no further task starts; the running
 * ones are awaited, then the failure of the lowest index is thrown. Nothing is left running.
 */
export async function forEachConcurrently(
	count: number,
	limit: number,
	task: (index: number) => Promise<void>,
	stopped: () => boolean = () => false,
): Promise<void> {
	const failures: Array<{ index: number; error: unknown }> = [];
	let next = 0;
	const lane = async (): Promise<void> => {
		while (next < count && failures.length === 0 && !stopped()) {
			const index = next++;
			try {
				await task(index);
			} catch (error) {
				failures.push({ index, error });
			}
		}
	};
	const lanes = Math.max(1, Math.min(Math.floor(limit) || 1, count));
	await Promise.all(Array.from({ length: lanes }, async () => await lane()));
	if (failures.length > 0) {
		failures.sort((left, right) => left.index - right.index);
		throw failures[0].error;
	}
}
