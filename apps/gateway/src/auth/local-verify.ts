import { fromBase64, verify } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';

// The gateway's own check of an agent signature against a cached agent (plugins/app/auth.ts): the
// same rule as identity's VerifyAgentSignature — any ACTIVE key of the agent verifies the 64-byte
// signature over the message. Only a success is trusted locally; anything else asks identity,
// which is authoritative (a key added or an agent registered since the agent was cached).

const SIGNATURE_BYTES = 64;

export function verifiesWithActiveKey(agent: identityV1.Agent, message: Uint8Array, signatureB64: string): boolean {
  let signature: Uint8Array;
  try {
    signature = fromBase64(signatureB64);
  } catch {
    return false;
  }
  if (signature.length !== SIGNATURE_BYTES) return false;
  for (const key of agent.keys) {
    if (key.status !== identityV1.KeyStatus.KEY_STATUS_ACTIVE) continue;
    try {
      if (verify(signature, message, fromBase64(key.pubkey))) return true;
    } catch {
      // a malformed stored key verifies nothing
    }
  }
  return false;
}
