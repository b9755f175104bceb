// Registry bodies signed over the path's resource: an ack's signature covers the artifact ref, so
// no schema or example makes one that verifies; and an identity reveal names a real alias of its
// own contract, which no example does (404 alias_not_found).
import { signArtifactAck } from '@exchange/sdk';
import fc from 'fast-check';
import type { OpTarget } from './op-targets';

/** An ack of one of `refs` (the operation's target artifacts) by `agentId`, named or left to the signature. */
export function ackBody(refs: fc.Arbitrary<string>, agentId: string, key: Uint8Array): fc.Arbitrary<unknown> {
  return fc.tuple(refs, fc.boolean()).map(([ref, named]) => ({ ...(named ? { agent_id: agentId } : {}), signature: signArtifactAck(ref, agentId, key) }));
}

/** A reveal of one of the targets' aliases (with its contract and reader), or null without targets. */
export function revealBody(targets: readonly OpTarget[]): fc.Arbitrary<unknown> | null {
  const whole = targets.filter((t) => t.params.contract_id && t.params.alias && t.params.reveal_to);
  if (whole.length === 0) return null;
  return fc.constantFrom(...whole).map((t) => ({ contract_id: t.params.contract_id, alias: t.params.alias, reveal_to: t.params.reveal_to }));
}
