/**
 * Hostile file lists for the trigger's tests and the reliability matrix: GET /files answers in
 * which the emulator's own records show ids, timestamps or values a faulty service could send,
 * while the emulator keeps ordering and filtering by its records.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Emulator } from './index';
import { JsonText } from './http-util';

/** JSON text of an object nested `depth` levels deep (`{"a":{"a":…{}}}`), built without recursion. */
export function deepJson(depth: number): string {
	return `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
}

const RAW_TOKEN = 'raw-json-value:';

/**
 * A value that stands for JSON text in a rewritten file (rewriteListedFiles): the answer carries
 * the text itself, e.g. deepJson(20_000), which JSON.stringify could not write.
 */
export function rawValue(text: string, registry: Map<string, string>): string {
	const token = `${RAW_TOKEN}${registry.size}`;
	registry.set(token, text);
	return token;
}

/**
 * From now on every GET /files answer (listings and rechecks by id) shows each file as `rewrite`
 * returns it (undefined: as it is): a service that answers ids, timestamps or values it should
 * not. The emulator keeps ordering and filtering by its own records. Values made with rawValue()
 * go out as their JSON text. Returns a function that ends the rewriting.
 */
export function rewriteListedFiles(
	emulator: Emulator,
	rewrite: (file: IDataObject) => IDataObject | undefined,
	raw: Map<string, string> = new Map(),
): () => void {
	let active = true;
	emulator.faults.editAnswerNext({
		method: 'GET',
		path: '/files',
		count: Number.MAX_SAFE_INTEGER,
		edit(body) {
			if (!active || !body || typeof body !== 'object' || !Array.isArray((body as IDataObject).files)) return body;
			const answer = body as { files: IDataObject[] };
			answer.files = answer.files.map((file) => rewrite(file) ?? file);
			if (raw.size === 0) return answer;
			let text = JSON.stringify(answer);
			for (const [token, json] of raw) text = text.split(JSON.stringify(token)).join(json);
			return new JsonText(text);
		},
	});
	return () => {
		active = false;
	};
}
