import type { registryV1 } from '@exchange/proto';
import type { StoreExchangeObjectInput, StoreObjectInput } from './objects.service';

// proto → use-case inputs; domain → proto is shared with the outbox event (objects.events).
// Visibility stays the wire code: the use cases decode it among their other checks, in their order.
export { toProtoObject } from './objects.events';

export function storeObjectInput(req: registryV1.StoreObjectRequest): StoreObjectInput {
  return {
    type: req.type,
    payloadJson: req.payloadJson,
    signerAgentId: req.signerAgentId,
    signature: req.signature,
    visibility: req.visibility,
    parties: req.parties,
    tags: req.tags,
  };
}

export function storeExchangeObjectInput(req: registryV1.StoreExchangeObjectRequest): StoreExchangeObjectInput {
  return { type: req.type, payloadJson: req.payloadJson, visibility: req.visibility, parties: req.parties, tags: req.tags };
}
