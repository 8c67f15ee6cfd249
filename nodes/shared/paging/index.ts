/**
 * The one paging guard, pure (no n8n context, no request): every loop that reads a list page by
 * page goes through it (docs/dev/architecture.md#paging).
 *
 *   guard.ts   PagingGuard: request caps, progress, each item once, bounded memory and bytes, its message
 *   loop.ts    walkPages, the one loop over pages (readPages: all of them); pagingNodeError, a problem as a node's error
 *   digest.ts  a page's digest without recursion
 */
export type { PageVerdict, PagingOptions, PagingProblem, PagingProblemKind } from './guard';
export { PagingError, PagingGuard } from './guard';
export { pageDigest } from './digest';
export type { PageAnswer, PageWalk, WalkEnd } from './loop';
export { pagingNodeError, readPages, walkPages } from './loop';
