import { ART, ARTIFACT_STATUSES, ArtifactRef, BUYER, ContractId, CTR, MediaType, Page, Parties, PUB, SIG, Signature, SIGNER, T, Visibility } from './registry.schemas';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of Artifacts: uploads, envelopes, acks, delivery receipts, takedowns (building blocks in registry.schemas.ts).

// ─── artifacts ──────────────────────────────────────────────────────────────────────────────

const EnvelopeIn = Type.Object(
  {
    algorithm: Type.String({ minLength: 1, maxLength: 64, examples: ['x25519-xsalsa20-poly1305'] }),
    recipient_key_ids: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 100, description: 'Base64 x25519 public keys (or key ids) of the recipients' }),
    nonce: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Base64 nonce, when the scheme has one' })),
  },
  { additionalProperties: false, description: 'Sealed-box metadata: the bytes stay opaque to the exchange' },
);
const EnvelopeOut = Type.Object(
  {
    algorithm: Type.String(),
    recipient_key_ids: Type.Array(Type.String()),
    nonce: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
export type EnvelopeJson = Static<typeof EnvelopeOut>;

export const UploadArtifactBody = Type.Object(
  {
    content_base64: Type.String({ minLength: 1, pattern: '^[A-Za-z0-9+/]*={0,2}$', description: 'The bytes, standard base64 (≤ 25 MiB decoded; more is 413 `payload_too_large`)' }),
    media_type: MediaType,
    contract_id: Type.Optional(ContractId),
    access: Type.Optional({ ...Visibility, default: 'parties' }),
    parties: Type.Optional(Parties),
    envelope: Type.Optional(EnvelopeIn),
  },
  {
    additionalProperties: false,
    examples: [{ content_base64: 'eyJzdW1tYXJpZXMiOjQwfQ==', media_type: 'application/json', contract_id: CTR, access: 'parties', parties: [] }],
  },
);
export type UploadArtifactBodyT = Static<typeof UploadArtifactBody>;

const artifactExample = {
  artifact_ref: ART,
  size_bytes: 17,
  media_type: 'application/json',
  contract_id: CTR,
  access: 'parties',
  parties: [BUYER],
  envelope: null,
  status: 'active',
  removed_reason: null,
  uploaded_by: SIGNER,
  created_at: T,
  updated_at: T,
};
export const Artifact = Type.Object(
  {
    artifact_ref: ArtifactRef,
    size_bytes: Type.Integer(),
    media_type: Type.String(),
    contract_id: Nullable(Type.String()),
    access: Visibility,
    parties: Type.Array(Type.String()),
    envelope: Nullable(EnvelopeOut),
    status: StringEnum(ARTIFACT_STATUSES),
    removed_reason: Nullable(Type.String()),
    uploaded_by: Nullable(Type.String({ description: 'The uploading agent; null when the operator uploaded without an acting agent' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'Artifact metadata (the bytes: GET /v1/artifacts/{artifact_ref})', examples: [artifactExample] },
);
export type ArtifactJson = Static<typeof Artifact>;

export const ArtifactEnvelope = Type.Object(
  { artifact_ref: ArtifactRef, envelope: EnvelopeOut },
  { additionalProperties: false, description: 'The artifact’s encryption envelope', examples: [{ artifact_ref: ART, envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: [PUB], nonce: null } }] },
);

export const AckBody = Type.Object(
  {
    agent_id: Type.Optional({ ...AgentId, description: 'Defaults to the acting agent' }),
    signature: { ...Signature, description: 'Base64 ed25519 by agent_id over canonical JSON of {artifact_ref, agent_id}' },
  },
  { additionalProperties: false, examples: [{ signature: SIG }] },
);
export const Ack = Type.Object(
  { ack_id: Type.String(), artifact_ref: ArtifactRef, agent_id: Type.String(), signature: Type.String(), created_at: Timestamp },
  { additionalProperties: false, description: 'A signed acknowledgement of an artifact', examples: [{ ack_id: 'ack_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', artifact_ref: ART, agent_id: BUYER, signature: SIG, created_at: T }] },
);

const receiptExample = {
  delivery_receipt_id: 'dlv_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  artifact_ref: ART,
  agent_id: BUYER,
  size_bytes: 17,
  delivered_at: T,
  signature: SIG,
  signer_public_key: PUB,
};
export const DeliveryReceipt = Type.Object(
  {
    delivery_receipt_id: Type.String(),
    artifact_ref: ArtifactRef,
    agent_id: Type.String(),
    size_bytes: Type.Integer(),
    delivered_at: Timestamp,
    signature: Type.String({ description: 'Base64 ed25519 by the exchange key over canonical JSON of the other fields' }),
    signer_public_key: Type.String(),
  },
  { additionalProperties: false, description: 'A delivery receipt signed by the exchange', examples: [receiptExample] },
);
export const DeliveryReceiptPage = Page(DeliveryReceipt, 'A page of delivery receipts', receiptExample);


export const ReasonBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)' }) },
  { additionalProperties: false, examples: [{ reason: 'DMCA notice 2026-117' }] },
);
