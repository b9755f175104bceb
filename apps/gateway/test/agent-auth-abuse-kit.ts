import { randomBytes } from 'node:crypto';
import type { FakeIdentity } from './fake-identity';
import type { FakeMarket } from './fake-market';
import { TestAgent } from './harness';

// Requests and counters shared by the agent-auth abuse specs (agent-auth-abuse*.spec.ts): an
// attacker IP, a contract body, signed and forged requests, and the backing calls made.

export const ATTACKER_IP = '198.51.100.66';
export const CONTRACT = JSON.stringify({ title: 'Summarise', budget: { amount: '10', currency: 'CREDIT' }, deadline: '2030-01-01T00:00:00.000Z', acceptance_criteria: 'x' });

type Method = 'GET' | 'POST';

export function signedRequest(agent: TestAgent, method: Method, url: string, body = '') {
  const headers: Record<string, string> = agent.signedHeaders(method, url, body);
  if (body !== '') headers['content-type'] = 'application/json';
  return {
    method,
    url,
    headers,
    ...(body === '' ? {} : { payload: body }),
  };
}

export const createContractCalls = (market: FakeMarket) => market.calls.filter((c) => c.method === 'createContract').length;
export const verifyCalls = (identity: FakeIdentity) => identity.calls.filter((c) => c.method === 'verifyAgentSignature').length;

/** A multipart upload naming `claimed`, signed by a key that is not its own. */
export function forgedUpload(claimed: string, remoteAddress: string) {
  const boundary = `----forged${randomBytes(6).toString('hex')}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: text/plain\r\n\r\n${randomBytes(8).toString('hex')}\r\n--${boundary}--\r\n`,
  );
  const forger = new TestAgent(claimed);
  const headers = forger.signedHeaders('POST', '/v1/artifacts', body.toString('latin1'));
  return { method: 'POST' as const, url: '/v1/artifacts', remoteAddress, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body };
}
