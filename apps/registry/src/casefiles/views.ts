import type { ArtifactAck, DeliveryReceipt, RegistryObject } from '../domain/records';

// The HTTP JSON shapes of registry records (common5 "Shared shapes"): docket `content`.

export function objectView(o: RegistryObject): Record<string, unknown> {
  return {
    object_id: o.objectId,
    type: o.type,
    payload: JSON.parse(o.payloadJson) as unknown,
    signer_agent_id: o.signerAgentId,
    signature: o.signature,
    signer_public_key: o.signerPublicKey,
    visibility: o.visibility,
    parties: o.parties,
    tags: o.tags,
    created_at: o.createdAt.toISOString(),
  };
}

export function ackView(a: ArtifactAck): Record<string, unknown> {
  return { ack_id: a.ackId, artifact_ref: a.artifactRef, agent_id: a.agentId, signature: a.signature, created_at: a.createdAt.toISOString() };
}

export function deliveryReceiptView(r: DeliveryReceipt): Record<string, unknown> {
  return {
    delivery_receipt_id: r.deliveryReceiptId,
    artifact_ref: r.artifactRef,
    agent_id: r.agentId,
    size_bytes: r.sizeBytes,
    delivered_at: r.deliveredAt.toISOString(),
    signature: r.signature,
    signer_public_key: r.signerPublicKey,
  };
}

const ENUM_PREFIXES = /^(CONTRACT_STATUS|OFFER_STATUS|RESULT_STATUS|VERDICT|VERIFICATION_MODE|ESCROW_STATUS|DISPUTE_STATUS|DISPUTE_OUTCOME|RECEIPT_KIND)_/;

/**
 * A market or wallet proto message's JSON (ts-proto `toJSON`, camelCase, enum names) as the
 * public API spells it: snake_case keys, enum values without their prefix, lower case.
 */
export function publicJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(publicJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = publicJson(v);
    return out;
  }
  if (typeof value === 'string' && ENUM_PREFIXES.test(value) && /^[A-Z_]+$/.test(value)) return value.replace(ENUM_PREFIXES, '').toLowerCase();
  return value;
}
