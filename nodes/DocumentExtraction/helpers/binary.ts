import type { IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import type { PayloadSource } from '../transport';

/** An input binary, ready to be sent: its name, type and size, and a way to open its bytes. */
export interface BinarySource {
	fileName: string;
	mimeType: string;
	fileSize: number;
	/** Reads the bytes; a stream from n8n's binary storage when the binary is stored there. */
	open: PayloadSource;
	/** n8n's binary data id when the bytes live in binary storage (filesystem, database, S3). */
	binaryDataId?: string;
}

/**
 * Locates the binary of an item without reading it into memory when n8n keeps it in binary
 * storage: the size comes from the stored metadata and every open() starts a fresh stream.
 */
export async function binarySource(
	context: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: string,
): Promise<BinarySource> {
	const binary = context.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const fileName = binary.fileName ?? '';
	const mimeType = binary.mimeType || 'application/octet-stream';

	if (binary.id) {
		const binaryDataId = binary.id;
		const metadata = await context.helpers.getBinaryMetadata(binaryDataId);
		const fileSize = Number(metadata.fileSize ?? binary.bytes);
		if (!Number.isFinite(fileSize)) {
			throw new NodeOperationError(
				context.getNode(),
				`The size of the binary "${binaryPropertyName}" of item ${itemIndex} is unknown`,
				{ itemIndex },
			);
		}
		return {
			fileName: fileName || metadata.fileName || '',
			mimeType: binary.mimeType || metadata.mimeType || mimeType,
			fileSize,
			binaryDataId,
			open: async () => ({
				body: await context.helpers.getBinaryStream(binaryDataId),
				contentLength: fileSize,
			}),
		};
	}

	const buffer = Buffer.from(binary.data, BINARY_ENCODING);
	return {
		fileName,
		mimeType,
		fileSize: buffer.length,
		open: async () => ({ body: buffer, contentLength: buffer.length }),
	};
}
