import { verifyWithAnyKeyAsync } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';

// The gateway's own check of an agent signature against a cached agent (plugins/app/auth.ts): the
// same rule as identity's VerifyAgentSignature (both are verifyWithAnyKeyAsync) — any ACTIVE key of
// the agent verifies the 64-byte signature over the message. OpenSSL's check runs on libuv's
// threadpool: it was the largest single cost on the gateway's one event loop. Only a success is
// trusted locally; anything else asks identity, which is authoritative (a key added or an agent
// registered since the agent was cached).

export async function verifiesWithActiveKey(agent: identityV1.Agent, message: Uint8Array, signatureB64: string): Promise<boolean> {
  const active = agent.keys.filter((key) => key.status === identityV1.KeyStatus.KEY_STATUS_ACTIVE).map((key) => key.pubkey);
  return (await verifyWithAnyKeyAsync(signatureB64, message, active)) !== null;
}
