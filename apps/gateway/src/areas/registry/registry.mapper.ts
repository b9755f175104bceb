import { registryV1, registryV1Wire } from '@exchange/proto';
import type { ArtifactJson, EnvelopeJson } from './artifacts.schemas';
import type { DocketExportJson } from './attestations.schemas';
import type { RegistryObjectJson, VisibilityName } from './registry.schemas';

// registry gRPC ⇄ REST JSON (snake_case, ISO timestamps, null for absent optional fields, enums
// through the tables generated from registry.proto).

const { visibility, artifactStatus } = registryV1Wire;

export const visibilityFromJson = (value: VisibilityName | undefined, fallback: VisibilityName): registryV1.Visibility =>
  visibility.toProto(value ?? fallback);

export function visibilityToJson(value: registryV1.Visibility): VisibilityName {
  const name = visibility.toWire(value);
  if (name === undefined) throw new Error(`registry answered an unknown visibility ${String(value)}`);
  return name;
}

const iso = (date: Date | undefined, what: string): string => {
  if (!date) throw new Error(`registry answered without ${what}`);
  return date.toISOString();
};

/** payload_json is canonical JSON text written by the registry. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`registry answered malformed JSON for ${what}`);
  }
}

export function objectToJson(object: registryV1.RegistryObject | undefined): RegistryObjectJson {
  if (!object) throw new Error('registry answered without the object');
  return {
    object_id: object.objectId,
    type: object.type,
    payload: parseJsonText(object.payloadJson, 'payload_json'),
    signer_agent_id: object.signerAgentId,
    signature: object.signature,
    signer_public_key: object.signerPublicKey,
    visibility: visibilityToJson(object.visibility),
    parties: object.parties,
    tags: object.tags,
    created_at: iso(object.createdAt, 'created_at'),
  };
}

export function envelopeToJson(envelope: registryV1.Envelope | undefined): EnvelopeJson | null {
  if (!envelope) return null;
  return { algorithm: envelope.algorithm, recipient_key_ids: envelope.recipientKeyIds, nonce: envelope.nonce ?? null };
}

export function envelopeFromJson(envelope: { algorithm: string; recipient_key_ids: string[]; nonce?: string } | undefined): registryV1.Envelope | undefined {
  if (!envelope) return undefined;
  return { algorithm: envelope.algorithm, recipientKeyIds: envelope.recipient_key_ids, nonce: envelope.nonce };
}

export function artifactToJson(artifact: registryV1.Artifact | undefined): ArtifactJson {
  if (!artifact) throw new Error('registry answered without the artifact');
  return {
    artifact_ref: artifact.artifactRef,
    size_bytes: Number(artifact.sizeBytes),
    media_type: artifact.mediaType,
    contract_id: artifact.contractId ?? null,
    access: visibilityToJson(artifact.access),
    parties: artifact.parties,
    envelope: envelopeToJson(artifact.envelope),
    status: artifactStatus.toWire(artifact.status) ?? 'active', // UNSPECIFIED (or unknown) reads as active
    removed_reason: artifact.removedReason ?? null,
    uploaded_by: artifact.uploadedBy === '' ? null : artifact.uploadedBy,
    created_at: iso(artifact.createdAt, 'created_at'),
    updated_at: iso(artifact.updatedAt, 'updated_at'),
  };
}

export function ackToJson(ack: registryV1.ArtifactAck | undefined) {
  if (!ack) throw new Error('registry answered without the ack');
  return { ack_id: ack.ackId, artifact_ref: ack.artifactRef, agent_id: ack.agentId, signature: ack.signature, created_at: iso(ack.createdAt, 'created_at') };
}

export function deliveryReceiptToJson(r: registryV1.DeliveryReceipt) {
  return {
    delivery_receipt_id: r.deliveryReceiptId,
    artifact_ref: r.artifactRef,
    agent_id: r.agentId,
    size_bytes: Number(r.sizeBytes),
    delivered_at: iso(r.deliveredAt, 'delivered_at'),
    signature: r.signature,
    signer_public_key: r.signerPublicKey,
  };
}

export function docketToJson(docket: registryV1.Docket | undefined): DocketExportJson {
  if (!docket) throw new Error('registry answered without the docket');
  return {
    docket: parseJsonText(docket.docketJson, 'docket_json') as DocketExportJson['docket'],
    archive_base64: Buffer.from(docket.archive).toString('base64'),
  };
}

export function verdictToJson(res: registryV1.VerifyCasefileResponse) {
  return {
    valid: res.valid,
    docket_id: res.docketId,
    checks: res.checks.map((c) => (c.reason === undefined ? { ref: c.ref, ok: c.ok } : { ref: c.ref, ok: c.ok, reason: c.reason })),
  };
}

/** Decoded size of standard padded base64 text (validated by the schema's pattern). */
export function base64DecodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** Decodes base64 in slices (a multiple of 4 characters) so no second full-size copy is built. */
export function* base64Chunks(text: string, chunkBytes: number): Generator<Buffer> {
  const step = Math.max(4, Math.floor(chunkBytes / 3) * 4);
  for (let i = 0; i < text.length; i += step) yield Buffer.from(text.slice(i, i + step), 'base64');
}
