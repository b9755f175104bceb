import { generateKeyPair, signCanonical, toBase64 } from '@exchange/crypto';
import type { Agent, AgentKey } from '../../src/agents/agent.model';
import type { RegistrationInput } from '../../src/agents/registration';

let sequence = 0;

/** A unique, well-formed agent id (tests share one database per suite). */
export function newAgentId(prefix = 'test'): string {
  sequence += 1;
  return `${prefix}:agent:a${Date.now().toString(36)}-${process.pid}-${sequence}`;
}

export function newKey(): { privateKey: Uint8Array; pubkey: string } {
  const { privateKey, publicKey } = generateKeyPair();
  return { privateKey, pubkey: toBase64(publicKey) };
}

/** A registration signed by a fresh primary key, as an agent runtime would build it. */
export function signedRegistration(overrides: Partial<RegistrationInput> & { extraKeys?: number } = {}) {
  const primary = newKey();
  const extra = Array.from({ length: overrides.extraKeys ?? 0 }, () => newKey());
  const agentId = overrides.agentId ?? newAgentId();
  const proofNonce = overrides.proofNonce ?? `nonce-${agentId}-${Math.random().toString(36).slice(2)}`;
  const primaryPubkey = overrides.primaryPubkey ?? primary.pubkey;
  const proofSignature =
    overrides.proofSignature ??
    signCanonical({ agent_id: agentId, primary_pubkey: primaryPubkey, proof_nonce: proofNonce }, primary.privateKey);
  const input: RegistrationInput = {
    agentId,
    primaryPubkey,
    pubkeySet: overrides.pubkeySet ?? extra.map((k) => k.pubkey),
    identityLevel: overrides.identityLevel ?? null,
    proofNonce,
    proofSignature,
  };
  return { input, primary, extra };
}

export function agentFixture(overrides: Partial<Agent> = {}): Agent {
  const at = new Date('2026-01-02T03:04:05.678Z');
  const key = (pubkey: string, primary: boolean): AgentKey => ({
    pubkey,
    primary,
    status: 'active',
    addedAt: at,
    revokedAt: null,
    revokedReason: null,
  });
  const primaryPubkey = toBase64(new Uint8Array(32).fill(7));
  return {
    agentId: 'acme:agent:fixture',
    primaryPubkey,
    keys: [key(primaryPubkey, true), key(toBase64(new Uint8Array(32).fill(8)), false)],
    identityLevel: 'SANDBOX_UNVERIFIED',
    status: 'active',
    frozenReason: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
