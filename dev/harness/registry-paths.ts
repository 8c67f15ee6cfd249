import { resolve } from 'node:path';

/** Root of this repository (the package n8n users install). */
export const REPO_ROOT = resolve(__dirname, '..', '..');
