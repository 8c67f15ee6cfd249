/**
 * The emulator's query builder: POST /query/execute over extracted values.
 * The specification leaves the inner shapes of the queryConfig arrays open
 * (docs/dev/api-contract.md#query-configuration-shapes); the subset this
 * engine understands is written down in ../QUERY.md. An invalid configuration never throws: it
 * answers no data and `errors[]` with JSON Pointers into the request body.
 *
 * types.ts (documents, catalog, answers, the plan's parts), fields.ts (the fields a query may
 * name), compiler.ts (checking the configuration's parts, building filters), plan.ts (the whole
 * configuration read into a plan), run.ts (the plan over the documents), compare.ts (ordering).
 */
import { prepareQueryDataset, type QueryDataset } from './fields';
import { planQuery } from './plan';
import { failed, runPlan } from './run';
import type { QueryCatalog, QueryableDocument, QueryResult } from './types';

export { prepareQueryDataset, type QueryDataset };
export type { QueryCatalog, QueryError, QueryHeader, QueryResult, QueryableDocument } from './types';

/**
 * Runs a query-builder configuration over `documents` (the workspace's processed files).
 * See QUERY.md for the accepted shapes. Never throws for a bad configuration.
 */
export function executeQuery(queryConfig: unknown, options: unknown, documents: QueryableDocument[], catalog: QueryCatalog = {}): QueryResult {
	return executePreparedQuery(queryConfig, options, prepareQueryDataset(documents, catalog));
}

/** executeQuery over a prepared dataset: the same answers. */
export function executePreparedQuery(queryConfig: unknown, options: unknown, dataset: QueryDataset): QueryResult {
	const plan = planQuery(queryConfig, options, dataset);
	return Array.isArray(plan) ? failed(plan) : runPlan(plan, dataset);
}
