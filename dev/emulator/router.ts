/** Route table types shared by the API routes. */
import type { IncomingMessage } from 'node:http';
import type { CallbackSender } from './callbacks';
import type { Clock } from './clock';
import type { JsonResponse } from './http-util';
import type { ObjectStore } from './object-store';
import type { Processor } from './processing';
import type { EmulatorState } from './state';
import type { Presigner } from './storage';
import type { ApiKeyRecord, DeleteAnswerShape, WorkspaceRecord } from './types';
import type { Query } from './validate';

/** What a route may use of the emulator (the core provides it). */
export interface RouteServices {
	readonly state: EmulatorState;
	readonly clock: Clock;
	readonly presigner: Presigner;
	readonly processor: Processor;
	readonly store: ObjectStore;
	readonly callbacks: CallbackSender;
	readonly storageUrl: string;
	readonly deleteAnswer: DeleteAnswerShape;
	readonly options: { readonly maxDirectoryDepth: number; readonly maxPageCount: number; readonly minPartSizeMB: number; readonly defaultPartSizeMB: number };
}

export type ParamKind = 'uuid' | 'objectId' | 'string';

export interface RequestContext {
	core: RouteServices;
	req: IncomingMessage;
	method: string;
	/** Full path, e.g. /prod/v1/files. */
	path: string;
	params: Record<string, string>;
	query: Query;
	body: unknown;
	apiKey: ApiKeyRecord;
	workspace: WorkspaceRecord;
	requestId: string;
}

export interface Route {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
	/** Path after /prod/v1, with :name parameters. */
	pattern: string;
	/** Changes state: a read-only key gets 403. */
	write: boolean;
	/** Honours Idempotency-Key (replay, reuse check). */
	idempotent: boolean;
	/** Has a JSON body. */
	body: boolean;
	params?: Record<string, ParamKind>;
	handler(ctx: RequestContext): JsonResponse | Promise<JsonResponse>;
}

export interface CompiledRoute extends Route {
	regex: RegExp;
	names: string[];
}

export function compile(route: Route): CompiledRoute {
	const names: string[] = [];
	const source = route.pattern
		.split('/')
		.map((segment) => {
			if (segment.startsWith(':')) {
				names.push(segment.slice(1));
				return '([^/]+)';
			}
			return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	return { ...route, regex: new RegExp(`^${source}/?$`), names };
}

export function ok(body: unknown, headers?: Record<string, string>): JsonResponse {
	return { status: 200, body, headers };
}
