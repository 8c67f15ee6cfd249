import type { INode } from 'n8n-workflow';

/**
 * The node typeVersions (docs/versioning.md), written once for both nodes. From typeVersion 2 the
 * action node's Update Values takes the file's fields (the field mapper) and both nodes output
 * values typed by their fields (Simplify, the trigger's Include Extracted Values, the AI tool,
 * which runs the action node). Workflows saved with typeVersion 1 keep today's parameters and output.
 */
export const NODE_VERSIONS = [1, 2];

/** The typeVersion new nodes get. */
export const DEFAULT_NODE_VERSION = 2;

/** The first typeVersion with the file's fields in the editor and typed values out. */
export const SCHEMA_AWARE_VERSION = 2;

/**
 * Nodes born after typed values, whose every typeVersion is schema-aware (by the node type's name,
 * the part after the package's prefix): the Callback Trigger emits the items of the polling
 * trigger's current typeVersion.
 */
const SCHEMA_AWARE_FROM_THE_START: ReadonlySet<string> = new Set(['documentExtractionCallbackTrigger']);

/** Whether the node running (or being edited) is of a typeVersion with typed, schema-aware values. */
export function isSchemaAware(context: { getNode(): INode }): boolean {
	const node = context.getNode();
	const typeName = node.type.slice(node.type.lastIndexOf('.') + 1);
	return SCHEMA_AWARE_FROM_THE_START.has(typeName) || node.typeVersion >= SCHEMA_AWARE_VERSION;
}
