/**
 * The one paging guard, pure (no n8n context, no request): every loop that reads a list page by
 * page goes through it (docs/dev/architecture.md#paging).
 *
 *   guard.ts   PagingGuard: request caps, progress, each item once, bounded memory and bytes, its message
 *   loop.ts    readPages, the plain loop over pages; pagingNodeError, a problem as a node's error
 *   digest.ts  a page's digest without recursion
 */
export type { PageVerdict, PagingOptions, PagingProblem, PagingProblemKind } from './guard';
export { PagingError, PagingGuard } from './guard';
export { pageDigest } from './digest';
export { pagingNodeError, readPages } from './loop';
