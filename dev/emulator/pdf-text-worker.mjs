// Worker thread that turns PDF bytes into text lines with pdfjs-dist.
// pdfjs-dist 5 is ESM-only and jest runs our TypeScript as CommonJS, so extraction.ts runs
// this file in a worker_threads Worker, where Node loads ESM natively.
// Protocol: in { id, data: Uint8Array } -> out { id, text } or { id, error: { name, message } }.
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
const pdfjsPromise = import('pdfjs-dist/legacy/build/pdf.mjs');

const documentOptions = {
	verbosity: 0,
	isEvalSupported: false,
	disableFontFace: true,
	useSystemFonts: false,
	standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
	cMapUrl: join(pdfjsRoot, 'cmaps') + '/',
	cMapPacked: true,
};

// A vertical jump larger than this many font heights between two lines is a blank line.
const BLANK_LINE_GAP = 1.8;

function pageLines(items) {
	const lines = [];
	let current = '';
	let previous = null; // { y, size, endX } of the last non-empty item

	for (const item of items) {
		if (typeof item.str !== 'string') continue; // marked-content markers
		const [, , c, d, x, y] = item.transform;
		const size = Math.hypot(c, d) || 10;
		if (item.str !== '') {
			if (previous !== null) {
				const verticalGap = Math.abs(y - previous.y);
				const sameLine = verticalGap <= size * 0.5;
				if (!sameLine) {
					if (current !== '') {
						lines.push(current);
						current = '';
					}
					if (verticalGap > size * BLANK_LINE_GAP) lines.push('');
				} else if (current !== '' && x - previous.endX > size * 0.15 && !/\s$/.test(current) && !/^\s/.test(item.str)) {
					current += ' ';
				}
			}
			current += item.str;
			previous = { y, size, endX: x + (item.width || 0) };
		}
		if (item.hasEOL && current !== '') {
			lines.push(current);
			current = '';
		}
	}
	if (current !== '') lines.push(current);
	return lines;
}

async function extract(data) {
	const { getDocument } = await pdfjsPromise;
	const loadingTask = getDocument({ ...documentOptions, data });
	const pdf = await loadingTask.promise;
	try {
		const lines = [];
		for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
			const page = await pdf.getPage(pageNumber);
			const content = await page.getTextContent();
			lines.push(...pageLines(content.items));
			page.cleanup();
		}
		return lines.join('\n');
	} finally {
		await loadingTask.destroy();
	}
}

parentPort.on('message', async ({ id, data }) => {
	try {
		parentPort.postMessage({ id, text: await extract(data) });
	} catch (error) {
		parentPort.postMessage({
			id,
			error: { name: String(error?.name ?? 'Error'), message: String(error?.message ?? error) },
		});
	}
});
