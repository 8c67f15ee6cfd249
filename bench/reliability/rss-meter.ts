/**
 * The growth of this process's resident memory while a matrix case runs: sampled every 25 ms
 * from start() until stop(), which returns the peak above the level at start() in MiB.
 */
export function startRssMeter(): { stop: () => number } {
	const before = process.memoryUsage().rss;
	let peak = before;
	const sample = () => {
		peak = Math.max(peak, process.memoryUsage().rss);
	};
	const sampler = setInterval(sample, 25);
	return {
		stop: () => {
			clearInterval(sampler);
			sample();
			return Math.max(0, (peak - before) / (1024 * 1024));
		},
	};
}
