/**
 * A request that got no HTTP answer is explained once: what happened, then what to do, and no
 * generic advice after a cause that says it all. The `npm start` sandbox's offline refusal
 * (ESANDBOXOFFLINE) says the cause and the fix in its own words, so nothing is added to it; the
 * Default instance's host was typed by nobody, so an unknown host there blames the network, never
 * the spelling. The same table (nodes/shared/connectionFailure.ts) words the node's errors and the
 * credential test.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { explainConnectionFailure } from '../../nodes/shared/connectionFailure';
import { buildNetworkError } from '../../nodes/shared/transport/errors';
import { block as blockDns, unblock as unblockDns } from '../../dev/n8n/dns-block.cjs';
import { runNode } from '../../dev/harness';
import { SEEDED_KEYS, useFakeWaitClock } from './support';

useFakeWaitClock();

const NODE: INode = { id: '1', name: 'Document Extraction', type: 'n8n-nodes-document-extraction.documentExtraction', typeVersion: 1, position: [0, 0], parameters: {} };
const OFFLINE_CAUSE =
	'The sandbox is offline: start it with npm start -- --online to reach api.orion.file.ai. It may connect only to this machine (127.0.0.1), so the connection to api.orion.file.ai:443 was refused.';

function networkError(url: string, code: string, cause = `${code} from the socket`): NodeApiError {
	return buildNetworkError(NODE, { method: 'GET', url, code, cause, attempts: 1 });
}

/** The sentences of a message, for "said once" checks. */
const sentences = (message: string) => message.split(/(?<=\.) /).map((sentence) => sentence.trim());

describe('the node\'s network errors say what is known, once', () => {
	it('offline sandbox: the cause and the fix in the guard\'s own words, and nothing after them', () => {
		const error = networkError('https://api.orion.file.ai/prod/v1/subscription', 'ESANDBOXOFFLINE', OFFLINE_CAUSE);

		expect(error.message).toBe(
			'Could not reach https://api.orion.file.ai: The sandbox is offline: start it with npm start -- --online to reach api.orion.file.ai. It may connect only to this machine (127.0.0.1), so the connection to api.orion.file.ai:443 was refused (ESANDBOXOFFLINE).',
		);
	});

	it('the Default instance\'s host not found (blocked DNS): blames the network, not a spelling nobody typed', () => {
		const error = networkError('https://api.orion.file.ai/prod/v1/files', 'ENOTFOUND');

		expect(error.message).not.toMatch(/spelling/i);
		expect(error.message).toContain('It is the fixed host of the chosen Instance, so nothing typed in the credential is wrong');
		expect(error.message).toContain('Check that n8n can reach the internet from where it runs: its DNS server, firewall or HTTP proxy.');
	});

	it('a host the user typed not found: asks to check its spelling, once', () => {
		const error = networkError('https://api.jp.example.com/prod/v1/files', 'ENOTFOUND');

		expect(error.message).toBe(
			'Could not reach https://api.jp.example.com: its host name was not found (DNS, ENOTFOUND). Check the spelling of the host (Instance Host or Base URL Override) in the credential, and that n8n can look up host names where it runs.',
		);
	});

	it('a storage host keeps the advice its caller gives', () => {
		const error = buildNetworkError(NODE, {
			method: 'PUT',
			url: 'https://storage.example.com/bucket/key?X-Amz-Signature=secret',
			code: 'ECONNRESET',
			cause: 'socket hang up',
			attempts: 3,
			advice: 'Check the network between n8n and the storage host, then run the node again.',
		});

		expect(error.message).toBe(
			'Could not reach https://storage.example.com: the connection was closed before the answer was complete (ECONNRESET) (3 attempts). Check the network between n8n and the storage host, then run the node again.',
		);
	});

	const CODES = ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENETUNREACH', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'EPROTO', 'ESANDBOXOFFLINE', 'EWHATEVER'];

	it.each(CODES)('%s: no sentence twice, no spelling for the fixed host, and advice only where the cause does not give it', (code) => {
		for (const url of ['https://api.orion.file.ai/prod/v1/x', 'https://api.au.example.com/prod/v1/x', 'http://127.0.0.1:8787/prod/v1/x']) {
			const message = networkError(url, code, code === 'ESANDBOXOFFLINE' ? OFFLINE_CAUSE : `connect ${code} 1.2.3.4:443`).message;
			const said = sentences(message);
			expect({ url, code, repeated: said.filter((sentence, index) => said.indexOf(sentence) !== index) }).toEqual({ url, code, repeated: [] });
			if (url.includes('orion')) expect({ url, code, message }).toEqual({ url, code, message: expect.not.stringMatching(/spelling/i) });
		}
	});

	it('every code this table knows comes with something to do; an unknown one with words of its own stands alone', () => {
		for (const code of CODES.filter((known) => !['ESANDBOXOFFLINE', 'EWHATEVER'].includes(known))) {
			for (const typedIn of [undefined, 'the Base URL Override']) {
				const failure = explainConnectionFailure({ code, cause: 'x', typedIn });
				expect({ code, typedIn, ownWords: failure.ownWords, hasTodo: failure.todo.length > 0 }).toEqual({ code, typedIn, ownWords: false, hasTodo: true });
			}
		}
		expect(explainConnectionFailure({ code: 'ESANDBOXOFFLINE', cause: OFFLINE_CAUSE })).toMatchObject({ ownWords: true, todo: '' });
		expect(explainConnectionFailure({ code: 'EWHATEVER', cause: '' })).toMatchObject({ what: 'network error EWHATEVER', ownWords: false });
	});
});

describe('in n8n\'s engine, with the Default instance on a network whose DNS answers nothing', () => {
	beforeAll(() => blockDns());
	afterAll(() => unblockDns());

	it('Get Subscription fails saying the network is at fault, not the spelling', async () => {
		const result = await runNode({
			type: 'documentExtraction',
			parameters: { resource: 'workspace', operation: 'getSubscription' },
			credentials: { documentExtractionApi: { apiKey: SEEDED_KEYS.readWrite, instance: 'default' } },
		});

		expect(result.error?.message).toMatch(/^Could not reach https:\/\/api\.orion\.file\.ai: its host name could not be looked up \(DNS, ENOTFOUND\)/);
		expect(result.error?.message).not.toMatch(/spelling/i);
		expect(result.error?.message).not.toContain(SEEDED_KEYS.readWrite);
	});
});
