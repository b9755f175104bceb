import { errors } from '@exchange/platform';
import { registrationProofPayload, verifyCanonicalAsync } from '@exchange/crypto';
import type { ExchangeEnvironment, IdentityLevel } from './agent.model';
import { assertRegistrableLevel, defaultRegistrationLevel } from './identity-levels';
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES, base64ByteLength, isRegistrablePublicKey, validationFailed, type FieldError, canNameAgent } from './validation';

export const PUBKEY_SET_MAX = 32;
const PROOF_NONCE = /^[\x20-\x7e]{1,255}$/;

export interface RegistrationInput {
  agentId: string;
  primaryPubkey: string;
  pubkeySet: string[];
  /** null when the request names no level (proto UNSPECIFIED). */
  identityLevel: IdentityLevel | null;
  proofNonce: string;
  proofSignature: string;
}

export interface Registration extends RegistrationInput {
  identityLevel: IdentityLevel;
}

/**
 * Checks the shape of a registration (every field error at once → 400 `validation_failed`),
 * then the level the environment allows (403 `identity_level_not_allowed`).
 */
export function validateRegistration(input: RegistrationInput, environment: ExchangeEnvironment): Registration {
  const fieldErrors: FieldError[] = [];
  if (!canNameAgent(input.agentId)) {
    fieldErrors.push({ pointer: '/agent_id', message: 'must look like <namespace>:agent:<name>' });
  }
  if (base64ByteLength(input.primaryPubkey) !== PUBLIC_KEY_BYTES) {
    fieldErrors.push({ pointer: '/primary_pubkey', message: 'must be standard base64 of a 32-byte ed25519 public key' });
  }
  if (input.pubkeySet.length > PUBKEY_SET_MAX) {
    fieldErrors.push({ pointer: '/pubkey_set', message: `must hold at most ${PUBKEY_SET_MAX} keys` });
  }
  const seen = new Set([input.primaryPubkey]);
  input.pubkeySet.forEach((key, i) => {
    if (base64ByteLength(key) !== PUBLIC_KEY_BYTES) {
      fieldErrors.push({ pointer: `/pubkey_set/${i}`, message: 'must be standard base64 of a 32-byte ed25519 public key' });
    } else if (!isRegistrablePublicKey(key)) {
      fieldErrors.push({ pointer: `/pubkey_set/${i}`, message: 'must be an ed25519 public key: a canonical curve point, not of small order' });
    } else if (seen.has(key)) {
      fieldErrors.push({ pointer: `/pubkey_set/${i}`, message: 'duplicates another key of the agent' });
    }
    seen.add(key);
  });
  if (!PROOF_NONCE.test(input.proofNonce)) {
    fieldErrors.push({ pointer: '/proof_nonce', message: 'must be 1-255 printable ASCII characters' });
  }
  if (base64ByteLength(input.proofSignature) !== SIGNATURE_BYTES) {
    fieldErrors.push({ pointer: '/proof_signature', message: 'must be standard base64 of a 64-byte ed25519 signature' });
  }
  if (fieldErrors.length > 0) throw validationFailed(fieldErrors);

  const identityLevel = input.identityLevel ?? defaultRegistrationLevel(environment);
  assertRegistrableLevel(environment, identityLevel);
  return { ...input, identityLevel };
}

/**
 * 400 `key_proof_failed` unless the primary key signed canonical {agent_id, primary_pubkey,
 * proof_nonce}. OpenSSL's check runs off the event loop (a registration's largest CPU cost).
 */
export async function assertRegistrationProof(registration: Registration): Promise<void> {
  const payload = registrationProofPayload({
    agent_id: registration.agentId,
    primary_pubkey: registration.primaryPubkey,
    proof_nonce: registration.proofNonce,
  });
  if (!(await verifyCanonicalAsync(payload, registration.proofSignature, registration.primaryPubkey))) {
    throw errors.invalidArgument('key_proof_failed', 'key ownership proof failed');
  }
}
