import type { registryV1 } from '@exchange/proto';
import type { AckInput, UploadMetadata } from './artifacts.service';

// proto → use-case inputs; domain → proto is shared with the outbox events (artifacts.events).
// Access stays the wire code: the upload use case decodes it among its other checks, in their order.
export { toProtoAck, toProtoArtifact, toProtoEnvelope, toProtoReceipt } from './artifacts.events';

export function uploadMetadata(m: registryV1.ArtifactMetadata): UploadMetadata {
  const meta: UploadMetadata = { mediaType: m.mediaType, access: m.access, parties: m.parties };
  if (m.contractId !== undefined) meta.contractId = m.contractId;
  if (m.envelope !== undefined) {
    meta.envelope = { algorithm: m.envelope.algorithm, recipientKeyIds: m.envelope.recipientKeyIds };
    if (m.envelope.nonce !== undefined) meta.envelope.nonce = m.envelope.nonce;
  }
  return meta;
}

export function ackInput(req: registryV1.AckArtifactRequest): AckInput {
  return { artifactRef: req.artifactRef, agentId: req.agentId, signature: req.signature };
}
