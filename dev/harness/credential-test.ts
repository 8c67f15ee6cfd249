/**
 * testCredential(): the editor's "Test" button. Follows the n8n application's CredentialsTester
 * (packages/cli/src/services/credentials-tester.service.ts): the credential's `test` request runs
 * through n8n-core's RoutingNode on a temporary node, authenticated by the credentials helper,
 * over real HTTP; the outcome maps to { status: 'OK' | 'Error', message } the same way.
 */
import './container';

import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialTestRequestData,
	ICredentialsDecrypted,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	ITaskDataConnections,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, VersionedNodeType } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { STAND_IN_NODE_TYPES } from './registry';
import type { HarnessSession, PackageOptions } from './session';
import { openSession } from './session';

function getPath(data: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], data);
}

function findTest(
	session: HarnessSession,
	credentialType: string,
): ICredentialTestFunction | ICredentialTestRequestData | undefined {
	const type = session.credentialTypes.getByName(credentialType);
	if (type.test) return { testRequest: type.test };

	for (const nodeName of session.credentialTypes.getSupportedNodes(credentialType)) {
		const node = session.nodeTypes.getByName(nodeName);
		const versions: INodeType[] =
			node instanceof VersionedNodeType ? Object.values(node.nodeVersions) : [node as INodeType];
		for (const nodeType of versions) {
			for (const { name, testedBy } of nodeType.description.credentials ?? []) {
				if (name !== credentialType || !testedBy) continue;
				if (typeof testedBy === 'string') return nodeType.methods?.credentialTest?.[testedBy];
				return { nodeType, testRequest: testedBy };
			}
		}
	}
	return undefined;
}

export type TestCredentialOptions = PackageOptions;

/** Runs a credential's test the way the editor's "Test" button does. */
export async function testCredential(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	options: TestCredentialOptions = {},
): Promise<INodeCredentialTestResult> {
	const session = await openSession(options);
	const { credentialsHelper } = session;
	const test = findTest(session, credentialType);
	if (test === undefined) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: HarnessCredentialsHelper.credentialId(credentialType),
		name: `${credentialType} (harness)`,
		type: credentialType,
		data,
	};
	credentialsHelper.setCredentials({ [credentialType]: data });
	const additionalData = createAdditionalData({ credentialsHelper });
	try {
		credentialsDecrypted.data = await credentialsHelper.applyDefaultsAndOverwrites(
			additionalData,
			data,
			credentialType,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}

	if (typeof test === 'function') {
		return await test.call(new CredentialTestContext(additionalData), credentialsDecrypted);
	}

	const nodeType = test.nodeType ?? STAND_IN_NODE_TYPES['n8n-nodes-base.noOp'];
	const version = nodeType.description.version;
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: Array.isArray(version) ? version.slice(-1)[0] : version,
		position: [0, 0],
		credentials: { [credentialType]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: (_name, nodeVersion) => NodeHelpers.getVersionedNodeType(nodeTypeCopy, nodeVersion),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const runExecutionData = { resultData: { runData: {} } } as IRunExecutionData;
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await workflow.expression.withIsolate(async () => await routingNode.runNode());
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } })
			.cause;
		if (cause?.response) {
			const statusCode = cause.response.status;
			for (const rule of test.testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: cause.response.statusText || `Received HTTP status code: ${statusCode}`,
				};
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: (error as Error).message };
	}

	for (const rule of test.testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response?.[0]?.[0]?.json;
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
