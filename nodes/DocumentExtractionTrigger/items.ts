import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { shown } from '../../credentials/shown';
import type { FileRecord } from '../shared/api';
import type { ItemReport } from '../shared/output/documentItem';
import { buildItem } from '../shared/output/documentItem';
import type { FileStream } from './files';
import { stampOf } from './files';

/**
 * The polling trigger's item of a file (with its values when asked): the document item both
 * triggers emit (nodes/shared/output/documentItem.ts: bounded depth, key order, no secrets, never
 * throwing), plus a note when the file's timestamp in the stream's order is not RFC 3339 text (the
 * trigger emits such a file once, apart from the order of the others), and that timestamp kept in
 * the item that stands for a record that could not be made into one.
 */
export function triggerItem(
	file: FileRecord,
	extra: IDataObject | undefined,
	stream: FileStream,
	secrets: string[],
): { item: INodeExecutionData; report: ItemReport } {
	return buildItem(file, extra, {
		secrets,
		notesOf: () =>
			stampOf(file, stream) === undefined
				? [
						`${stream.sortBy} ${shown(file[stream.sortBy])} is not an RFC 3339 timestamp: the trigger cannot place this file among the others, so it emitted it once, apart from their order.`,
					]
				: [],
		checkedFieldsOf: () => {
			const stamp = stampOf(file, stream);
			return stamp === undefined ? {} : { [stream.sortBy]: stamp.text };
		},
	});
}
