/**
 * The credentials helper the engine calls for every credential use. It does what the n8n
 * application's CredentialsHelper (packages/cli/src/credentials-helper.ts) does with credentials
 * it has decrypted: type defaults applied, expressions in the data resolved, a generic
 * `authenticate` object applied to each request (its `={{$credentials.x}}` expressions resolved
 * by the workflow's expression engine), `preAuthentication` run for expirable fields.
 * Storage is an in-memory map from credential type to data instead of the database.
 */
import './container';

import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	ICredentialsExpressionResolveValues,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
	deepCopy,
	isExpression,
} from 'n8n-workflow';
import { getAdditionalKeys } from 'n8n-core';

import type { HarnessCredentialTypes } from './registry';

const mockNode: INode = {
	id: 'harness-credential-expressions',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

const mockNodeTypes: INodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getKnownTypes: () => ({}),
};

/** Thrown like n8n's CredentialNotFoundError when a node uses a credential the test did not give. */
export class HarnessCredentialNotFoundError extends UserError {
	constructor(type: string) {
		super(
			`Credential of type "${type}" was not given to the harness (pass it in the "credentials" option)`,
		);
	}
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	constructor(private readonly credentialTypes: HarnessCredentialTypes) {
		super();
	}

	/** The id the harness gives the credential of a type in node JSON. */
	static credentialId(type: string): string {
		return `harness-${type}`;
	}

	/** Replaces the stored credentials: type name -> data as a user would enter it. */
	setCredentials(credentials: Record<string, ICredentialDataDecryptedObject>): void {
		this.stored.clear();
		for (const [type, data] of Object.entries(credentials)) {
			if (!this.credentialTypes.recognizes(type)) {
				throw new UnexpectedError(`Unknown credential type "${type}" given to the harness`);
			}
			this.stored.set(type, deepCopy(data));
		}
	}

	/** The stored (raw) data of a type, e.g. to see what preAuthentication wrote back. */
	getStored(type: string): ICredentialDataDecryptedObject | undefined {
		const data = this.stored.get(type);
		return data === undefined ? undefined : deepCopy(data);
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const typeDef = this.credentialTypes.getByName(credentialType);
		if (!typeDef.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions;
		const credentialType = this.credentialTypes.getByName(typeName);
		const { authenticate } = credentialType;
		if (!authenticate) return requestOptions as IHttpRequestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}

		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}
		if (requestOptions.headers === undefined) requestOptions.headers = {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<string, IDataObject | undefined>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as IDataObject)) {
					const keyResolved = this.resolveValue(key, credentials, workflow, node);
					const valueResolved = this.resolveValue(value as string, credentials, workflow, node);
					target[outerKey] ??= {};
					(target[outerKey] as IDataObject)[keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	private resolveValue(
		parameterValue: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		if (!value) return '';
		return value.toString();
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;
		if (typeof credentialType.preAuthentication !== 'function') return undefined;

		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirableProperty.name] === '' || credentialsExpired || isTestingCredentials) {
			const output = await credentialType.preAuthentication.call(helpers, credentials);
			if (output[expirableProperty.name] === undefined) return undefined;
			const stored = this.stored.get(typeName) ?? {};
			this.stored.set(typeName, { ...stored, ...(output as ICredentialDataDecryptedObject) });
			return Object.assign(credentials, output as ICredentialDataDecryptedObject);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		return (await credentialType.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const data = this.stored.get(type);
		if (data === undefined) throw new HarnessCredentialNotFoundError(type);
		const credentials = new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
		credentials.setData(data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.stored.get(type);
		if (data === undefined) throw new HarnessCredentialNotFoundError(type);
		if (raw === true) return deepCopy(data);
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			deepCopy(data),
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Type defaults, then expressions in the data resolved (as the n8n application does). */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentialsProperties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			decryptedDataOriginal as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
				decryptedData as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decryptedData = (await workflow.expression.withIsolate(
				async () =>
					workflow.expression.getComplexParameterValue(
						mockNode,
						decryptedData as INodeParameters,
						mode,
						additionalKeys,
						undefined,
						undefined,
						decryptedData,
					) as ICredentialDataDecryptedObject,
			)) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.set(type, deepCopy(data));
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.stored.get(type) ?? {};
		this.stored.set(type, { ...stored, oauthTokenData: data.oauthTokenData });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType: ICredentialType = this.credentialTypes.getByName(type);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
