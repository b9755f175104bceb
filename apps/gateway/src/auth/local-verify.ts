import { verifyWithAnyKey } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';

// The gateway's own check of an agent signature against a cached agent (plugins/app/auth.ts): the
// same rule as identity's VerifyAgentSignature (both are verifyWithAnyKey) — any ACTIVE key of the
// agent verifies the 64-byte signature over the message. Only a success is trusted locally; anything
// else asks identity, which is authoritative (a key added or an agent registered since the agent was cached).

export function verifiesWithActiveKey(agent: identityV1.Agent, message: Uint8Array, signatureB64: string): boolean {
  const active = agent.keys.filter((key) => key.status === identityV1.KeyStatus.KEY_STATUS_ACTIVE).map((key) => key.pubkey);
  return verifyWithAnyKey(signatureB64, message, active) !== null;
}
