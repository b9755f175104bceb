import { registryV1 } from '@exchange/proto';
import { visibilityToProto } from '../domain/validation';
import type { AckRow, ArtifactRow, DeliveryReceiptRow, ObjectRow } from '../data/registry.repo';

export function toProtoObject(o: ObjectRow): registryV1.RegistryObject {
  return {
    objectId: o.objectId,
    type: o.type,
    payloadJson: o.payloadJson,
    signerAgentId: o.signerAgentId,
    signature: o.signature,
    signerPublicKey: o.signerPublicKey,
    visibility: visibilityToProto(o.visibility),
    parties: o.parties,
    tags: o.tags,
    createdAt: o.createdAt,
  };
}

export function toProtoArtifact(a: ArtifactRow): registryV1.Artifact {
  return {
    artifactRef: a.artifactRef,
    sizeBytes: String(a.sizeBytes),
    mediaType: a.mediaType,
    contractId: a.contractId ?? undefined,
    access: visibilityToProto(a.access),
    parties: a.parties,
    envelope:
      a.envelope === null
        ? undefined
        : { algorithm: a.envelope.algorithm, recipientKeyIds: a.envelope.recipient_key_ids, nonce: a.envelope.nonce },
    status: a.status === 'active' ? registryV1.ArtifactStatus.ARTIFACT_STATUS_ACTIVE : registryV1.ArtifactStatus.ARTIFACT_STATUS_REMOVED,
    removedReason: a.removedReason ?? undefined,
    uploadedBy: a.uploadedBy,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function toProtoAck(a: AckRow): registryV1.ArtifactAck {
  return { ackId: a.ackId, artifactRef: a.artifactRef, agentId: a.agentId, signature: a.signature, createdAt: a.createdAt };
}

export function toProtoReceipt(r: DeliveryReceiptRow): registryV1.DeliveryReceipt {
  return {
    deliveryReceiptId: r.deliveryReceiptId,
    artifactRef: r.artifactRef,
    agentId: r.agentId,
    sizeBytes: String(r.sizeBytes),
    deliveredAt: r.deliveredAt,
    signature: r.signature,
    signerPublicKey: r.signerPublicKey,
  };
}
