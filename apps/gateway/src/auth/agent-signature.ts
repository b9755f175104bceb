import { canonicalBytes, REQUEST_NONCE_PATTERN, requestSigningPayload, sha256Hex } from '@exchange/crypto';

/** How far X-Agent-Timestamp may be from the gateway clock (DESIGN §3). */
export const AGENT_SIGNATURE_WINDOW_SECONDS = 300;

export interface AgentSignatureHeaders {
  agentId: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

export type AgentHeadersResult =
  | { kind: 'none' }
  | { kind: 'incomplete'; missing: string[] }
  | ({ kind: 'complete' } & AgentSignatureHeaders);

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads the agent-signed request headers: all four, none of the signing ones (timestamp, nonce,
 * signature — X-Agent-Id alone is the operator's acting agent), or an incomplete set.
 */
export function readAgentSignatureHeaders(headers: Headers): AgentHeadersResult {
  const agentId = header(headers, 'x-agent-id');
  const timestamp = header(headers, 'x-agent-timestamp');
  const nonce = header(headers, 'x-agent-nonce');
  const signature = header(headers, 'x-agent-signature');
  if (timestamp === undefined && nonce === undefined && signature === undefined) return { kind: 'none' };
  if (agentId !== undefined && timestamp !== undefined && nonce !== undefined && signature !== undefined) {
    return { kind: 'complete', agentId, timestamp, nonce, signature };
  }
  const missing: string[] = [];
  if (agentId === undefined) missing.push('X-Agent-Id');
  if (timestamp === undefined) missing.push('X-Agent-Timestamp');
  if (nonce === undefined) missing.push('X-Agent-Nonce');
  if (signature === undefined) missing.push('X-Agent-Signature');
  return { kind: 'incomplete', missing };
}

/** `ok`, or why the timestamp (unix seconds, as a decimal string) is refused. */
export function checkAgentTimestamp(timestamp: string, nowMs: number): 'ok' | 'malformed' | 'out_of_window' {
  if (!/^\d{1,12}$/.test(timestamp)) return 'malformed';
  const skew = Math.abs(Math.floor(nowMs / 1000) - Number(timestamp));
  return skew <= AGENT_SIGNATURE_WINDOW_SECONDS ? 'ok' : 'out_of_window';
}

/** X-Agent-Nonce: 16–64 URL-safe characters (DESIGN §3). */
export function isValidAgentNonce(nonce: string): boolean {
  return REQUEST_NONCE_PATTERN.test(nonce);
}

const EMPTY = new Uint8Array(0);

/**
 * The exact bytes an agent signs: canonical JSON of {agent_id, method, path (with query),
 * timestamp (the header string), nonce, body_sha256 (hex sha256 of the raw body bytes, of ""
 * when there is none)}.
 */
export function agentRequestSigningMessage(input: {
  agentId: string;
  method: string;
  pathWithQuery: string;
  timestamp: string;
  nonce: string;
  rawBody: Uint8Array | undefined;
}): Uint8Array {
  return agentRequestSigningMessageForHash({ ...input, bodySha256Hex: sha256Hex(input.rawBody ?? EMPTY) });
}

/** The same message when the body was hashed while it streamed (multipart uploads). */
export function agentRequestSigningMessageForHash(input: {
  agentId: string;
  method: string;
  pathWithQuery: string;
  timestamp: string;
  nonce: string;
  bodySha256Hex: string;
}): Uint8Array {
  return canonicalBytes(
    requestSigningPayload({
      agent_id: input.agentId,
      method: input.method.toUpperCase(),
      path: input.pathWithQuery,
      timestamp: input.timestamp,
      nonce: input.nonce,
      body_sha256: input.bodySha256Hex,
    }),
  );
}
