import * as directory from './directory';
import * as file from './file';
import * as fileType from './fileType';
import * as query from './query';
import type { Resource } from './resource';
import * as schema from './schema';
import * as workflow from './workflow';
import * as workspace from './workspace';

/**
 * Every resource of the node, in the order the Resource selector lists them. The node's
 * description (node.description.ts), the router (router.ts) and the operations table of the docs
 * (generated from the built description) all come from this list: a new resource is added here,
 * a new operation in its resource's index.ts.
 */
export const RESOURCES: readonly Resource[] = [
	directory.resource,
	file.resource,
	fileType.resource,
	query.resource,
	schema.resource,
	workflow.resource,
	workspace.resource,
];
