/**
 * The n8n-core services the engine resolves from its DI container, set up once per test file:
 * the logger (captured), and one BinaryDataService per binary data mode over one storage folder.
 */
import './env';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, ErrorReporter } from 'n8n-core';
import { LoggerProxy } from 'n8n-workflow';

import { CapturingLogger } from './logger';

export type BinaryDataMode = 'default' | 'filesystem';

/** Every line n8n-core, n8n-workflow and the nodes log in this test file. */
export const harnessLogger = new CapturingLogger();

Container.set(Logger, harnessLogger as unknown as Logger);
LoggerProxy.init(harnessLogger);

const binaryDataServices = new Map<BinaryDataMode, Promise<BinaryDataService>>();

async function createBinaryDataService(mode: BinaryDataMode): Promise<BinaryDataService> {
	// BinaryDataConfig reads N8N_BINARY_DATA_STORAGE_PATH (set in ./env) and the signing secret.
	const baseConfig = Container.get(BinaryDataConfig);
	const config = Object.assign(Object.create(Object.getPrototypeOf(baseConfig)) as object, baseConfig, {
		mode,
	}) as BinaryDataConfig;
	const service = new BinaryDataService(
		config,
		Container.get(ErrorReporter),
		harnessLogger as unknown as Logger,
	);
	// 'default' keeps binary data in the item as base64 (n8n's memory mode); 'filesystem' stores
	// it under the storage folder and puts an id ("filesystem-v2:...") in the item. Both modes can
	// read ids written by the other, as in n8n.
	await service.init();
	return service;
}

/** The BinaryDataService of a mode (created on first use). */
export async function getBinaryDataService(mode: BinaryDataMode): Promise<BinaryDataService> {
	let service = binaryDataServices.get(mode);
	if (!service) {
		service = createBinaryDataService(mode);
		binaryDataServices.set(mode, service);
	}
	return await service;
}

/**
 * Makes `mode` the binary data mode of the engine: n8n-core's binary helpers look the service
 * up in the container at call time. Call before a run (runWorkflow does).
 */
export async function useBinaryDataMode(mode: BinaryDataMode): Promise<BinaryDataService> {
	const service = await getBinaryDataService(mode);
	Container.set(BinaryDataService, service);
	return service;
}

export { Container };
