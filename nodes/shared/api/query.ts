import type { IDataObject } from 'n8n-workflow';

import type { ApiContext } from '../run';
import type { Violation } from '../transport';
import { apiRequestWithResponse } from '../transport';
import { ENDPOINTS } from './endpoints';
import type { ApiCall } from './types';

/** POST /query/execute body. The configuration's inner shapes are not published: docs/dev/api-contract.md#query-configuration-shapes. */
interface QueryRequest extends IDataObject {
	queryConfig: IDataObject;
	options?: { limit?: number; offset?: number; fieldMetadata?: IDataObject; skipCache?: boolean };
}

/**
 * POST /query/execute answer, read leniently: rows (a row that is not an object becomes
 * `{ value }`), headers keyed by alias, the service's time, and the configuration errors that a
 * 200 answer can carry (check them before trusting the rows).
 */
interface QueryPage {
	data: IDataObject[];
	headers: IDataObject;
	executionTimeMs: number;
	errors: Violation[];
	/** The bytes of the answer (counted against Max List Size by a Return All). */
	bytes: number;
}

function readQueryPage(body: IDataObject, bytes: number): QueryPage {
	return {
		bytes,
		data: Array.isArray(body.data)
			? (body.data as unknown[]).map((row) => (row && typeof row === 'object' ? (row as IDataObject) : { value: row as string }))
			: [],
		headers: body.headers && typeof body.headers === 'object' ? (body.headers as IDataObject) : {},
		executionTimeMs: typeof body.executionTimeMs === 'number' ? body.executionTimeMs : 0,
		errors: Array.isArray(body.errors) ? (body.errors as Violation[]) : [],
	};
}

/** POST /query/execute: one page of rows. The API ignores Idempotency-Key here: repeated like a read. */
export async function executeQuery(context: ApiContext, body: QueryRequest, call: ApiCall): Promise<QueryPage> {
	const answer = await apiRequestWithResponse(context, { ...ENDPOINTS.executeQuery, body, safeToRepeat: true, ...call });
	return readQueryPage(answer.body, answer.bytes);
}
