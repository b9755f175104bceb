// Key material and the two signatures an agent makes: the registration proof and per-request
// signatures (DESIGN §3). All primitives come from @exchange/crypto.
import {
  canonicalBytes,
  fromBase64,
  generateKeyPair,
  publicKeyFromPrivate,
  registrationProofPayload,
  REQUEST_NONCE_PATTERN,
  requestSigningPayload,
  sha256Hex,
  sign,
  signCanonical,
  toBase64,
} from '@exchange/crypto';

export interface AgentKeys {
  /** 32-byte ed25519 seed. Never leaves the agent runtime. */
  privateKey: Uint8Array;
  /** 32-byte ed25519 public key. */
  publicKey: Uint8Array;
}

export const IDENTITY_LEVELS = [
  'SANDBOX_UNVERIFIED',
  'MAINNET_BASIC',
  'MAINNET_ATTESTED',
  'MAINNET_VERIFIED',
  'MAINNET_INSTITUTIONAL',
] as const;
export type IdentityLevel = (typeof IDENTITY_LEVELS)[number];

export function isIdentityLevel(value: string): value is IdentityLevel {
  return (IDENTITY_LEVELS as readonly string[]).includes(value);
}

export function generateAgentKeys(): AgentKeys {
  return generateKeyPair();
}

/** Accepts a raw key or its standard base64 form and returns the base64 form. */
export function publicKeyToBase64(key: Uint8Array | string): string {
  return typeof key === 'string' ? toBase64(fromBase64(key)) : toBase64(key);
}

/** 128 random bits, hex: unique per registration (a nonce may be used once ever). */
export function randomProofNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface RegistrationBody {
  agent_id: string;
  primary_pubkey: string;
  pubkey_set: string[];
  identity_level: IdentityLevel;
  proof_nonce: string;
  proof_signature: string;
}

export interface BuildRegistrationInput {
  agentId: string;
  keys: AgentKeys;
  /** Extra keys for rotation (raw or base64); they do not sign the proof. */
  additionalPublicKeys?: Array<Uint8Array | string>;
  identityLevel?: IdentityLevel;
  /** Defaults to a fresh random nonce. */
  proofNonce?: string;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The `POST /v1/agents` body with its key-ownership proof signed by `keys.privateKey`. */
export function buildRegistrationBody(input: BuildRegistrationInput): RegistrationBody {
  // A mismatched pair would only fail server-side as `key_proof_failed`; say why here instead.
  if (!sameBytes(publicKeyFromPrivate(input.keys.privateKey), input.keys.publicKey)) {
    throw new Error('keys.publicKey does not belong to keys.privateKey');
  }
  const primaryPubkey = toBase64(input.keys.publicKey);
  const proofNonce = input.proofNonce ?? randomProofNonce();
  const payload = registrationProofPayload({ agent_id: input.agentId, primary_pubkey: primaryPubkey, proof_nonce: proofNonce });
  return {
    agent_id: input.agentId,
    primary_pubkey: primaryPubkey,
    pubkey_set: (input.additionalPublicKeys ?? []).map(publicKeyToBase64),
    identity_level: input.identityLevel ?? 'SANDBOX_UNVERIFIED',
    proof_nonce: proofNonce,
    proof_signature: signCanonical(payload, input.keys.privateKey),
  };
}

export interface SignRequestInput {
  /** The signing agent; signed, so the signature cannot be presented for another agent. */
  agentId: string;
  /** HTTP method; signed upper-case, as it goes on the wire. */
  method: string;
  /** Path as the server sees it, including the query string (`/v1/agents?limit=5`). */
  path: string;
  /** The exact body bytes sent; undefined/empty for no body (hash of ""). */
  body?: string | Uint8Array;
  /** Unix seconds; the same string goes in `X-Agent-Timestamp`. */
  timestamp: string | number;
  /** `X-Agent-Nonce`, 16–64 URL-safe characters; defaults to a fresh random one. Never reuse one. */
  nonce?: string;
  privateKey: Uint8Array;
}

export interface SignedRequest {
  timestamp: string;
  /** The `X-Agent-Nonce` value that was signed. */
  nonce: string;
  bodySha256: string;
  /** Standard base64 ed25519 signature, the `X-Agent-Signature` value. */
  signature: string;
}

/** 128 random bits as base64url (22 characters): a fresh `X-Agent-Nonce`. */
export function randomRequestNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

/**
 * Signs canonical {agent_id, method, path, timestamp, nonce, body_sha256} (DESIGN §3, agent-signed
 * requests). Each call with no `nonce` makes a new one, so a retry is a new signature.
 */
export function signRequest(input: SignRequestInput): SignedRequest {
  const timestamp = String(input.timestamp);
  const nonce = input.nonce ?? randomRequestNonce();
  if (!REQUEST_NONCE_PATTERN.test(nonce)) throw new Error('nonce must be 16–64 characters of A–Z a–z 0–9 - _');
  const bodySha256 = sha256Hex(input.body ?? '');
  const payload = requestSigningPayload({
    agent_id: input.agentId,
    method: input.method.toUpperCase(),
    path: input.path,
    timestamp,
    nonce,
    body_sha256: bodySha256,
  });
  const signature = toBase64(sign(canonicalBytes(payload), input.privateKey));
  return { timestamp, nonce, bodySha256, signature };
}

/** The four headers of an agent-signed request, for agents that build requests by hand. */
export function agentSignatureHeaders(input: SignRequestInput): Record<string, string> {
  const signed = signRequest(input);
  return {
    'X-Agent-Id': input.agentId,
    'X-Agent-Timestamp': signed.timestamp,
    'X-Agent-Nonce': signed.nonce,
    'X-Agent-Signature': signed.signature,
  };
}

export function unixSeconds(now: Date = new Date()): string {
  return String(Math.floor(now.getTime() / 1000));
}
