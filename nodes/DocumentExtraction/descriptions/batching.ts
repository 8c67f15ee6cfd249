import type { INodeProperties } from 'n8n-workflow';

import { ITEM_LIMITS } from '../../shared/limits';

/**
 * "Batching", as in n8n's HTTP Request node: how many items the node works on at the same time.
 * An operation offers it by putting this option into its Options collection; the router reads it
 * (BATCHING_PARAMETER) and runs the items of the node concurrently, keeping output order and
 * pairing. Operations without it run their items one after the other.
 */
const BATCHING_OPTION = 'batching';
export const BATCHING_PARAMETER = `options.${BATCHING_OPTION}`;

/** Values of a Batching option that was added but not filled in. */
export const BATCHING_DEFAULTS = { batchSize: ITEM_LIMITS.defaultBatchSize, batchInterval: ITEM_LIMITS.defaultBatchIntervalMs };
const { batchSize: DEFAULT_BATCH_SIZE, batchInterval: DEFAULT_BATCH_INTERVAL } = BATCHING_DEFAULTS;

export const batchingOption: INodeProperties = {
	displayName: 'Batching',
	name: BATCHING_OPTION,
	placeholder: 'Add Batching',
	type: 'fixedCollection',
	typeOptions: { multipleValues: false },
	default: { batch: {} },
	options: [
		{
			displayName: 'Batching',
			name: 'batch',
			values: [
				{
					displayName: 'Items per Batch',
					name: 'batchSize',
					type: 'number',
					typeOptions: { minValue: 1, numberPrecision: 0 },
					default: DEFAULT_BATCH_SIZE,
					description:
						'How many items are sent at the same time. Output order and pairing stay those of the input.',
				},
				{
					displayName: 'Batch Interval (Ms)',
					name: 'batchInterval',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_BATCH_INTERVAL,
					description:
						'Pause between batches, to throttle. 0: no batches, a new item starts as soon as one finishes (at most Items per Batch at a time).',
				},
			],
		},
	],
};
