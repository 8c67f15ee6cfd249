import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { FILE_PAGE_SIZE, listFileTypes, listFiles } from '../../shared/api';
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

/** While searching, pages read per call before answering (fewer when enough files match). */
const FILE_SEARCH_PAGES_PER_CALL = 10;
const FILE_SEARCH_ENOUGH_MATCHES = 20;

/**
 * The workspace's files, newest first, filtered by name or ID. Without a search, one API page per
 * call; with one, up to 10 pages per call, so matches further back are found without the user
 * scrolling through pages that show nothing.
 */
export async function searchFiles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	let page = Number(paginationToken) || 1;
	const lastPage = filter ? page + FILE_SEARCH_PAGES_PER_CALL - 1 : page;
	const results: INodeListSearchItems[] = [];
	const policy = editorPolicy(this);
	for (;;) {
		const { files, count: total } = await listFiles.call(
			this,
			{ page, limit: FILE_PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'DESC' },
			{ policy },
		);
		for (const file of files) {
			if (!matches(filter, String(file.fileName ?? ''), file.fileId)) continue;
			results.push({
				name: `${String(file.fileName ?? file.fileId)} (${String(file.createdAt ?? '').slice(0, 10)})`,
				value: file.fileId,
			});
		}
		const more = files.length === FILE_PAGE_SIZE && (total === undefined || page * FILE_PAGE_SIZE < total);
		if (!more) return { results };
		page++;
		if (page > lastPage || results.length >= FILE_SEARCH_ENOUGH_MATCHES) {
			return { results, paginationToken: String(page) };
		}
	}
}

/** The workspace's file types by name, filtered by name, class or ID (all pages at once). */
export async function searchFileTypes(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const fileTypes = await listFileTypes.call(this, { sortBy: 'name', sortOrder: 'ASC' }, { policy: editorPolicy(this) });
	return {
		results: fileTypes
			.filter((fileType) =>
				matches(filter, String(fileType.name ?? ''), String(fileType.className ?? ''), String(fileType.id ?? '')),
			)
			.map((fileType) => ({ name: fileTypeLabel(fileType), value: String(fileType.id) })),
	};
}
