/** ZIP uploads: which uploads are archives, the name a member keeps of its archive, a member's MIME type by its name, and the members extracted into the object store. */
import { basename, extname } from 'node:path';
import * as yauzl from 'yauzl';
import type { ObjectStore } from './object-store';
import type { StoredObject, UploadRecord } from './types';

const MIME_BY_EXTENSION: Record<string, string> = {
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
	'.text': 'text/plain',
	'.md': 'text/markdown',
	'.csv': 'text/csv',
	'.tsv': 'text/tab-separated-values',
	'.json': 'application/json',
	'.xml': 'application/xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.tif': 'image/tiff',
	'.tiff': 'image/tiff',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.xls': 'application/vnd.ms-excel',
	'.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	'.doc': 'application/msword',
	'.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	'.zip': 'application/zip',
};

export function mimeTypeOf(fileName: string): string {
	return MIME_BY_EXTENSION[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

export function isZipUpload(fileName: string, fileType: string): boolean {
	const mime = fileType.split(';')[0].trim().toLowerCase();
	return mime === 'application/zip' || mime === 'application/x-zip-compressed' || fileName.toLowerCase().endsWith('.zip');
}

/**
 * The ZIP name kept as zipArchiveName (retainOriginalZipFileName): control characters, path
 * separators and `..` removed, leading/trailing dots and whitespace trimmed, 255 characters.
 */
export function sanitizeZipArchiveName(name: string): string {
	let result = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(/[/\\]/g, '');
	while (result.includes('..')) result = result.replace(/\.\./g, '');
	result = result.replace(/^[\s.]+|[\s.]+$/g, '');
	const characters = Array.from(result);
	return characters.length > 255 ? characters.slice(0, 255).join('') : result;
}

export interface UnzippedMember {
	name: string;
	object?: StoredObject;
	error?: string;
}

/** Extracts every file entry of the archive to its own stored object. */
export function unzipToStore(store: ObjectStore, upload: UploadRecord, object: StoredObject): Promise<UnzippedMember[]> {
	const prefix = upload.s3Path.slice(0, upload.s3Path.lastIndexOf('/'));
	return new Promise((resolve, reject) => {
		yauzl.open(object.diskPath, { lazyEntries: true, autoClose: true }, (openError, zip) => {
			if (openError || !zip) {
				reject(new Error('The ZIP archive could not be read'));
				return;
			}
			const members: UnzippedMember[] = [];
			zip.on('error', () => reject(new Error('The ZIP archive could not be read')));
			zip.on('end', () => {
				if (members.length === 0) reject(new Error('The ZIP archive contains no files'));
				else resolve(members);
			});
			zip.on('entry', (entry: yauzl.Entry) => {
				const entryName = entry.fileName.replace(/\\/g, '/');
				if (entryName.endsWith('/') || entryName.startsWith('__MACOSX/') || basename(entryName).startsWith('._')) {
					zip.readEntry();
					return;
				}
				const index = members.length + 1;
				const name = basename(entryName) || `member-${index}`;
				const key = `${prefix}/members/${index}/${name}`;
				const unreadable = (): void => {
					members.push({ name, error: 'The ZIP member could not be read' });
					zip.readEntry();
				};
				zip.openReadStream(entry, (streamError, stream) => {
					if (streamError || !stream) {
						unreadable();
						return;
					}
					store
						.writeStream(stream)
						.then(async (written) => {
							members.push({ name, object: await store.commit(written.tmpPath, key, upload.workspaceId, mimeTypeOf(name), written.size, written.sha256) });
							zip.readEntry();
						})
						.catch(unreadable);
				});
			});
			zip.readEntry();
		});
	});
}
