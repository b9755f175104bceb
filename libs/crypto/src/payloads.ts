import { sha256Hex } from './encoding';

export interface RegistrationProofPayload {
  agent_id: string;
  primary_pubkey: string;
  proof_nonce: string;
}

/** Exactly the three fields the registration proof signs (DESIGN §3); extra fields are dropped. */
export function registrationProofPayload(p: RegistrationProofPayload): RegistrationProofPayload {
  return { agent_id: p.agent_id, primary_pubkey: p.primary_pubkey, proof_nonce: p.proof_nonce };
}

export interface RequestSigningPayload {
  /** The X-Agent-Id header: binds the signature to one agent (a key cannot act for another). */
  agent_id: string;
  /** Uppercase HTTP method. */
  method: string;
  /** Path including the query string, as sent. */
  path: string;
  /** Unix seconds, the X-Agent-Timestamp header value as a string. */
  timestamp: string;
  /** The X-Agent-Nonce header (16–64 URL-safe chars): never reused within the timestamp window. */
  nonce: string;
  /** Lowercase hex SHA-256 of the raw body; of "" when there is no body. */
  body_sha256: string;
}

/** The payload of an agent-signed request (DESIGN §3); extra fields are dropped. */
export function requestSigningPayload(p: RequestSigningPayload): RequestSigningPayload {
  return { agent_id: p.agent_id, method: p.method, path: p.path, timestamp: p.timestamp, nonce: p.nonce, body_sha256: p.body_sha256 };
}

/** X-Agent-Nonce: 16–64 characters of the URL-safe base64 alphabet (DESIGN §3). */
export const REQUEST_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** `body_sha256` for a raw request body; undefined/null means no body (hash of ""). */
export function bodySha256(body: Uint8Array | string | undefined | null): string {
  return sha256Hex(body ?? '');
}
