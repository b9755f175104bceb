import { registryV1 } from '@exchange/proto';

// domain → proto, shared by the outbox events and the gRPC mapper (which re-exports it).
import { visibilityToProto } from '../domain/validation';
import type { ArtifactAck, ArtifactEnvelope, ArtifactUpload, DeliveryReceipt, RegistryObject } from '../domain/records';

export function toProtoObject(o: RegistryObject): registryV1.RegistryObject {
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

export function toProtoEnvelope(e: ArtifactEnvelope): registryV1.Envelope {
  return { algorithm: e.algorithm, recipientKeyIds: e.recipient_key_ids, nonce: e.nonce };
}

export function toProtoArtifact(a: ArtifactUpload): registryV1.Artifact {
  return {
    artifactRef: a.artifactRef,
    sizeBytes: String(a.sizeBytes),
    mediaType: a.mediaType,
    contractId: a.contractId ?? undefined,
    access: visibilityToProto(a.access),
    parties: a.parties,
    envelope: a.envelope === null ? undefined : toProtoEnvelope(a.envelope),
    status: a.status === 'active' ? registryV1.ArtifactStatus.ARTIFACT_STATUS_ACTIVE : registryV1.ArtifactStatus.ARTIFACT_STATUS_REMOVED,
    removedReason: a.removedReason ?? undefined,
    uploadedBy: a.uploadedBy,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function toProtoAck(a: ArtifactAck): registryV1.ArtifactAck {
  return { ackId: a.ackId, artifactRef: a.artifactRef, agentId: a.agentId, signature: a.signature, createdAt: a.createdAt };
}

export function toProtoReceipt(r: DeliveryReceipt): registryV1.DeliveryReceipt {
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
