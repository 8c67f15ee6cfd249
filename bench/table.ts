/** The Markdown tables the benchmarks print: columns padded to their widest cell, numbers formatted by the benchmark. */

export interface TableOptions {
	/** How a number cell is written (default String). */
	format?: (cell: number) => string;
	/** An empty line between the title and the table (default false). */
	blankLineAfterTitle?: boolean;
}

export function printTable(title: string, header: string[], rows: Array<Array<string | number>>, options: TableOptions = {}): void {
	const formatNumber = options.format ?? String;
	const cells = [header, ...rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)))];
	const widths = header.map((_, column) => Math.max(...cells.map((row) => String(row[column]).length)));
	console.log(options.blankLineAfterTitle ? `\n${title}\n` : `\n${title}`);
	cells.forEach((row, index) => {
		console.log(`| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`);
		if (index === 0) console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
	});
}
