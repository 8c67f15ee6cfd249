import { DateTime } from 'luxon';
import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import type { FileRecord } from '../../shared/api';
import { FILE_PAGE_SIZE, listFileTypes, listFiles } from '../../shared/api';
import { ANSWER_LIMITS, PAGING_LIMITS } from '../../shared/limits';
import { PagingGuard, walkPages } from '../../shared/paging';
import { editorPolicy } from '../../shared/requestPolicy';
import { OCR_MODELS, ocrModelLabel } from '../descriptions/ocrModels';
import { fileTypeLabel } from '../helpers/fileTypes';

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const needle = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(needle));
}

export async function searchOcrModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return {
		results: OCR_MODELS.filter((model) => matches(filter, model.value, ocrModelLabel(model))).map(
			(model) => ({ name: `${ocrModelLabel(model)} (${model.value})`, value: model.value }),
		),
	};
}

/** Characters of a file's ID its list entry shows: enough to tell two uploads apart, as git shows a commit. */
const ID_SHOWN = 8;

/**
 * A file as the list shows it (n8n shows only an entry's name): its name, then when it was
 * uploaded, to the minute, in the workflow's time zone, its status and the start of its ID, so
 * that two uploads of one document on one day read apart: "receipt-R-7781.txt (2026-11-28 14:03,
 * processed, ID 3f9a1c2e…)".
 */
function fileLabel(file: FileRecord, zone: string): string {
	const uploaded = typeof file.createdAt === 'string' ? DateTime.fromISO(file.createdAt, { zone: 'utc' }).setZone(zone) : undefined;
	const details = [
		uploaded?.isValid ? uploaded.toFormat('yyyy-MM-dd HH:mm') : undefined,
		typeof file.status === 'string' && file.status !== '' ? file.status : undefined,
		`ID ${file.fileId.slice(0, ID_SHOWN)}${file.fileId.length > ID_SHOWN ? '…' : ''}`,
	].filter((part): part is string => part !== undefined);
	return `${String(file.fileName ?? file.fileId)} (${details.join(', ')})`;
}

const { fileSearchPagesPerCall: FILE_SEARCH_PAGES_PER_CALL, fileSearchEnoughMatches: FILE_SEARCH_ENOUGH_MATCHES } = PAGING_LIMITS;

/**
 * The workspace's files, newest first, filtered by name or ID. Without a search, one API page per
 * call; with one, up to 10 pages per call, so matches further back are found without the user
 * scrolling through pages that show nothing. The paging guard ends the list (no pagination token)
 * at the page its total allows, at ANSWER_LIMITS.maxPagesWithoutTotal, or at a page of this call
 * that brings no file not listed before (then with a warning in n8n's log); a file listed twice
 * in one call is shown once.
 */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken) || 1;
	const lastPage = filter ? page + FILE_SEARCH_PAGES_PER_CALL - 1 : page;
	const results: INodeListSearchItems[] = [];
	const policy = editorPolicy(this);
	const zone = this.getTimezone();
	const guard = new PagingGuard<FileRecord>({
		list: '/files (newest first)',
		pageSize: FILE_PAGE_SIZE,
		maxRequests: ANSWER_LIMITS.maxPagesWithoutTotal,
		idOf: (file) => file.fileId,
		pagesBefore: page - 1,
		whatToDo: 'The list ends there; search by name or ID, or type the file ID.',
	});
	let next = page;
	const end = await walkPages(
		guard,
		async (at) => {
			const { files, count } = await listFiles(this, { page: at, limit: FILE_PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'DESC' }, { policy });
			return { items: files, total: count, at: `page ${at}` };
		},
		{
			firstPage: page,
			onPage: (fresh, at) => {
				for (const file of fresh) {
					if (!matches(filter, String(file.fileName ?? ''), file.fileId)) continue;
					results.push({ name: fileLabel(file, zone), value: file.fileId });
				}
				next = at + 1;
				return next > lastPage || results.length >= FILE_SEARCH_ENOUGH_MATCHES;
			},
			onProblem: (problem) => this.logger.warn(problem.message, { node: this.getNode().name }),
		},
	);
	return end === 'stopped' ? { results, paginationToken: String(next) } : { results };
}

/** The workspace's file types by name, filtered by name, class or ID (all pages at once). */
export async function searchFileTypes(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const fileTypes = await listFileTypes(this, { sortBy: 'name', sortOrder: 'ASC' }, { policy: editorPolicy(this) });
	return {
		results: fileTypes
			.filter((fileType) =>
				matches(filter, String(fileType.name ?? ''), String(fileType.className ?? ''), String(fileType.id ?? '')),
			)
			.map((fileType) => ({ name: fileTypeLabel(fileType), value: String(fileType.id) })),
	};
}
