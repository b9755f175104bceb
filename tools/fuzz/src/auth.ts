// Credentials for a request. Agent signatures always come from the SDK's agentSignatureHeaders
// (the same function the SDK's own transport uses), so when the signed payload changes (nonce,
// agent_id) the fuzzer signs the new way without a change here. Forged credentials are
// deliberately wrong in one way each.
import { agentSignatureHeaders, generateAgentKeys, unixSeconds } from '@exchange/sdk';
import type { Signer } from './fixtures';

export interface Credentials {
  operatorToken: string;
  signers: Signer[];
  /** An agent the forgeries claim to be. */
  victimId: string;
}

type Headers = Array<[string, string]>;

function signed(signer: Signer, method: string, path: string, body: Buffer | null, at: Date): Headers {
  const headers = agentSignatureHeaders({
    agentId: signer.agentId,
    method,
    path,
    body: body ?? undefined,
    timestamp: unixSeconds(at),
    privateKey: signer.privateKey,
  });
  return Object.entries(headers);
}

export const operatorHeaders = (token: string, actAs: string | null): Headers => [['Authorization', `Bearer ${token}`], ...(actAs ? ([['X-Agent-Id', actAs]] as Headers) : [])];

export const agentHeaders = (signer: Signer, method: string, target: string, body: Buffer | null, now = new Date()): Headers => signed(signer, method, target, body, now);

const strangerKey = generateAgentKeys().privateKey;

/**
 * The forged credential number `n` (modulo the list), with a label for the report.
 * `signatureOnly`: only well-formed agent signatures that do not verify (a streamed upload
 * checks those after reading the body, where a refused upload must still leave nothing).
 */
export function forgedHeaders(
  n: number,
  creds: Credentials,
  signer: Signer,
  method: string,
  target: string,
  body: Buffer | null,
  now = new Date(),
  signatureOnly = false,
): { label: string; headers: Headers } {
  const victim = { agentId: creds.victimId, privateKey: strangerKey };
  const forgeries: Array<[string, () => Headers]> = [
    ['wrong bearer token', () => [['Authorization', 'Bearer fuzz-wrong-token-0123456789abcdef']]],
    ['empty bearer', () => [['Authorization', 'Bearer ']]],
    ['Basic scheme', () => [['Authorization', 'Basic dXNlcjpwYXNz']]],
    ['operator token plus one char', () => [['Authorization', `Bearer ${creds.operatorToken}x`]]],
    ['victim id signed with a stranger key', () => signed(victim, method, target, body, now)],
    ['signature 1000 s old', () => signed(signer, method, target, body, new Date(now.getTime() - 1_000_000))],
    ['timestamp "abc"', () => signed(signer, method, target, body, now).map(([k, v]): [string, string] => (/timestamp/i.test(k) ? [k, 'abc'] : [k, v]))],
    ['timestamp in Arabic digits', () => signed(signer, method, target, body, now).map(([k, v]): [string, string] => (/timestamp/i.test(k) ? [k, '١٢٣'] : [k, v]))],
    ['signature over another path', () => signed(signer, method, '/v1/agents', body, now)],
    ['signature over another body', () => signed(signer, method, target, Buffer.from('{"other":true}'), now)],
    ['signature not base64', () => signed(signer, method, target, body, now).map(([k, v]): [string, string] => (/signature/i.test(k) ? [k, '!!!not-base64!!!'] : [k, v]))],
    ['signature headers incomplete', () => signed(signer, method, target, body, now).filter(([k]) => !/timestamp/i.test(k))],
    ['agent id in capitals', () => signed(signer, method, target, body, now).map(([k, v]): [string, string] => (/^x-agent-id$/i.test(k) ? [k, v.toUpperCase()] : [k, v]))],
    ['bearer token with NUL', () => [['Authorization', 'Bearer abc\u0000def']]],
    ['bearer token of 10,000 chars', () => [['Authorization', `Bearer ${'t'.repeat(10_000)}`]]],
    ['bearer and a signature together', () => [['Authorization', 'Bearer fuzz-wrong-token-0123456789abcdef'], ...signed(signer, method, target, body, now)]],
  ];
  const SIGNATURE_FORGERIES = [4, 4, 8, 9];
  const [label, make] = signatureOnly ? forgeries[SIGNATURE_FORGERIES[n % SIGNATURE_FORGERIES.length]] : forgeries[n % forgeries.length];
  return { label, headers: make() };
}
