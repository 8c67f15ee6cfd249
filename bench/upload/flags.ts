/** The upload benchmark's flags (bench/upload.bench.ts describes them), read by the orchestrator and by every child process. */
import { numberFlag, textFlag } from '../args';

export const MIB = 1024 * 1024;

export const SIZE_MIB = numberFlag('mib', 1024);
export const SIZE_BYTES = Math.round(SIZE_MIB * MIB);
export const GIB_SENT = SIZE_BYTES / (1024 * MIB);
export const PART_MIB = numberFlag('part-mib', 10);
export const CONCURRENCY = numberFlag('concurrency', 4);
export const FILES = numberFlag('files', 500);
export const FILE_KIB = numberFlag('file-kib', 100);
export const BATCH = numberFlag('batch', 8);
export const ROUNDS = numberFlag('rounds', 2);
export const ONLY = textFlag('only');
if (!['', 'large', 'small'].includes(ONLY)) throw new Error(`--only takes large or small, not ${ONLY}`);
/**
 * How the helper row reads its parts: fs (default), n8n's binary stream with its reads left to the
 * collector (--helper-read stream), or n8n's binary stream with each read freed once copied, as
 * the node does (--helper-read stream-free).
 */
export const HELPER_READ = textFlag('helper-read') || 'fs';
if (!['fs', 'stream', 'stream-free'].includes(HELPER_READ)) throw new Error(`--helper-read takes fs, stream or stream-free, not ${HELPER_READ}`);
