/**
 * The shape of the request policy, checked on the source: the request path and the API layer
 * read no parameter (the policy is built above them, where a run starts, and handed down), the
 * table of limits is plain data, and a call of the API layer without a policy does not compile.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { REPOSITORY_ROOT, importGraph, reachedFrom } from '../../scripts/import-graph';
import { getFile, getSubscription, listFiles, putUploadFile, requestUpload } from '../../nodes/shared/api';
import * as limits from '../../nodes/shared/limits';

const graph = importGraph(REPOSITORY_ROOT, ['nodes', 'credentials']);

describe('the request policy is built where a run starts and handed down', () => {
	it('nothing the API layer or the request path imports reads a node parameter', () => {
		const below = reachedFrom(graph, ['nodes/shared/api/index.ts', 'nodes/shared/transport/index.ts']);
		const readers = below.filter((file) => readFileSync(join(REPOSITORY_ROOT, file), 'utf8').includes('getNodeParameter'));

		expect(below).toEqual(expect.arrayContaining(['nodes/shared/transport/storage.ts', 'nodes/shared/run/policy.ts']));
		expect(readers).toEqual([]);
	});

	it('the request options are named in two modules only: requestOptions.ts shows them, requestPolicy.ts reads them', () => {
		const naming = [...graph.keys()].filter((file) => {
			const text = readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
			return /\b(MAX_WAIT|REQUEST_TIMEOUT|MAX_ANSWER|MIN_SPEED|LOW_SPEED_TIME)_PARAMETER\b|'options\.(maxRateLimitWait|requestTimeout|maxAnswerSize|minTransferSpeed|lowSpeedTime)'/.test(text);
		});

		expect(naming.sort()).toEqual(['nodes/shared/requestOptions.ts', 'nodes/shared/requestPolicy.ts']);
	});

	it('limits/ is plain data: it imports nothing but itself and exports only numbers and tables of numbers', () => {
		const files = [...graph.keys()].filter((file) => file.startsWith('nodes/shared/limits/'));
		expect(files).toContain('nodes/shared/limits/index.ts');
		expect(files.flatMap((file) => [...(graph.get(file) ?? [])]).filter((target) => !target.startsWith('nodes/shared/limits/'))).toEqual([]);
		const values = Object.entries(limits as Record<string, unknown>).flatMap(([name, value]): Array<[string, unknown]> =>
			value !== null && typeof value === 'object' ? Object.entries(value).map(([key, inner]): [string, unknown] => [`${name}.${key}`, inner]) : [[name, value]],
		);

		expect(values.length).toBeGreaterThan(20);
		expect(values.filter(([, value]) => typeof value !== 'number')).toEqual([]);
	});

	it('a call of the API layer without a policy does not compile (tsc checks the expected errors)', () => {
		const calls = async (context: IExecuteFunctions, poll: IPollFunctions) => {
			// @ts-expect-error: a read names its policy
			await getFile(context, 'file', {});
			// @ts-expect-error: a call without its options
			await getSubscription(context);
			// @ts-expect-error: an item number is not a policy
			await listFiles(poll, {}, { itemIndex: 0 });
			// @ts-expect-error: a write needs an item's policy
			await requestUpload(context, { fileName: 'a.pdf', fileType: 'application/pdf', isSplit: false, schemaLocking: false }, {});
			// @ts-expect-error: a storage transfer too
			await putUploadFile(context, { url: 'https://storage.example.com/a', validUntil: 0 }, async () => ({ body: Buffer.alloc(0), contentLength: 0 }), {
				contentType: 'application/pdf',
				label: 'a',
			});
		};
		expect(calls).toBeInstanceOf(Function);
	});
});
