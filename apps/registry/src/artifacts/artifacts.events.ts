import type pg from 'pg';
import { registryV1, registryV1Wire, registryV1Events } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { ArtifactAck, ArtifactEnvelope, ArtifactUpload, DeliveryReceipt } from '../domain/records';
import { emit } from '../data/outbox';

// domain → proto, shared by the outbox events and the gRPC mapper (which re-exports it).

export function toProtoEnvelope(e: ArtifactEnvelope): registryV1.Envelope {
  return { algorithm: e.algorithm, recipientKeyIds: e.recipient_key_ids, nonce: e.nonce };
}

export function toProtoArtifact(a: ArtifactUpload): registryV1.Artifact {
  return {
    artifactRef: a.artifactRef,
    sizeBytes: String(a.sizeBytes),
    mediaType: a.mediaType,
    contractId: a.contractId ?? undefined,
    access: registryV1Wire.visibility.toProto(a.access),
    parties: a.parties,
    envelope: a.envelope === null ? undefined : toProtoEnvelope(a.envelope),
    status: registryV1Wire.artifactStatus.toProto(a.status),
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

export function artifactChanged(
  client: pg.ClientBase,
  verb: 'uploaded' | 'removed' | 'reinstated',
  a: ArtifactUpload,
  caller: Caller,
  reason?: string,
): Promise<void> {
  const data = registryV1Events.ArtifactChanged.toJSON({
    artifact: toProtoArtifact(a),
    actor: verb === 'uploaded' ? undefined : (caller.actor ?? undefined),
    reason,
  });
  return emit(client, `exchange.registry.artifact.${verb}`, a.artifactRef, data, caller);
}

export function artifactDelivered(client: pg.ClientBase, r: DeliveryReceipt, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.artifact.delivered', r.artifactRef, registryV1Events.ArtifactDelivered.toJSON({ receipt: toProtoReceipt(r) }), caller);
}

export function artifactAcked(client: pg.ClientBase, a: ArtifactAck, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.artifact.acked', a.artifactRef, registryV1Events.ArtifactAcked.toJSON({ ack: toProtoAck(a) }), caller);
}
