// Shapes of the registry area as the gateway returns them (common5.md "Shared shapes").
import type { Docket, VerifyResult } from '@exchange/casefile';

export type ObjectVisibility = 'public' | 'parties' | 'operator';

/** A signed registry object. `object_id` = "sha256:" + hex sha256 of canonicalize({type, payload, signer_agent_id}). */
export interface RegistryObject<P = unknown> {
  object_id: string;
  type: string;
  payload: P;
  signer_agent_id: string;
  /** Base64 ed25519 by the signer over canonicalize(payload). */
  signature: string;
  signer_public_key: string;
  visibility: ObjectVisibility;
  parties: string[];
  tags: string[];
  created_at: string;
}

export type ArtifactAccess = 'public' | 'parties' | 'operator';
export type ArtifactStatus = 'active' | 'removed';

export interface ArtifactEnvelope {
  algorithm: string;
  recipient_key_ids: string[];
  nonce?: string;
}

export interface Artifact {
  /** `sha256:<hex of the bytes>` */
  artifact_ref: string;
  size_bytes: number;
  media_type: string;
  contract_id: string | null;
  access: ArtifactAccess;
  parties: string[];
  envelope: ArtifactEnvelope | null;
  status: ArtifactStatus;
  removed_reason: string | null;
  uploaded_by: string;
  created_at: string;
  updated_at: string;
}

/** A downloaded artifact: its bytes and what the response headers said. */
export interface ArtifactDownload {
  bytes: Buffer;
  artifactRef: string;
  mediaType: string;
  sizeBytes: number;
  /** `"sha256:…"` as sent in ETag (quotes removed). */
  etag: string | null;
}

export interface ArtifactEnvelopeView {
  artifact_ref: string;
  envelope: ArtifactEnvelope;
}

export interface Ack {
  ack_id: string;
  artifact_ref: string;
  agent_id: string;
  signature: string;
  created_at: string;
}

/** Exchange-signed proof that an agent downloaded an artifact. */
export interface DeliveryReceipt {
  delivery_receipt_id: string;
  artifact_ref: string;
  agent_id: string;
  size_bytes: number;
  delivered_at: string;
  signature: string;
  signer_public_key: string;
}

/** An attestation is an object of type `attestation` whose payload has `subject_ref` and `claim`. */
export interface AttestationPayload {
  subject_ref: string;
  claim: unknown;
  [key: string]: unknown;
}

/** Exports answer the signed docket and its .tar.gz archive (base64). */
export interface CasefileExport {
  docket: Docket;
  archive_base64: string;
}

export type CasefileVerdict = VerifyResult;

export type PartyRole = 'buyer' | 'seller';

export interface PartyAliasToken {
  object_id: string;
  alias: string;
  contract_id: string;
  role: PartyRole;
  payload: Record<string, unknown>;
  signature: string;
  signer_public_key: string;
}

export interface IdentityRevealPayload {
  alias: string;
  agent_id: string;
  contract_id: string;
  reveal_to: string;
}
