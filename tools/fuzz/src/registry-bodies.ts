// Registry bodies signed over the path's resource: an ack's signature covers the artifact ref, so
// no schema or example makes one that verifies.
import { signArtifactAck } from '@exchange/sdk';
import fc from 'fast-check';

/** An ack of one of `refs` (the operation's target artifacts) by `agentId`, named or left to the signature. */
export function ackBody(refs: fc.Arbitrary<string>, agentId: string, key: Uint8Array): fc.Arbitrary<unknown> {
  return fc.tuple(refs, fc.boolean()).map(([ref, named]) => ({ ...(named ? { agent_id: agentId } : {}), signature: signArtifactAck(ref, agentId, key) }));
}
