import type { Visibility } from './access';

// The registry's records as the use cases see them; the repositories map SQL rows to these and
// the gRPC mapper maps them to proto.

/** A signed object (attestations among them); `payloadJson` is the canonical payload text. */
export interface RegistryObject {
  objectId: string;
  type: string;
  payloadJson: string;
  signerAgentId: string;
  signature: string;
  signerPublicKey: string;
  visibility: Visibility;
  parties: string[];
  tags: string[];
  subjectRef: string | null;
  createdAt: Date;
}

/** Sealed-box envelope metadata, in the JSON shape it is stored and shown in. */
export interface ArtifactEnvelope {
  algorithm: string;
  recipient_key_ids: string[];
  nonce?: string;
}

export type ArtifactStatus = 'active' | 'removed';

/**
 * One upload of some bytes as the API shows it: the upload's own metadata (uploader, contract,
 * access, parties, envelope, created_at) joined with the bytes' size and takedown state.
 */
export interface ArtifactUpload {
  uploadId: string;
  artifactRef: string;
  sizeBytes: number;
  mediaType: string;
  contractId: string | null;
  access: Visibility;
  parties: string[];
  envelope: ArtifactEnvelope | null;
  status: ArtifactStatus;
  removedReason: string | null;
  uploadedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The bytes themselves: size and takedown state (shared by every upload of them). */
export interface ArtifactBlob {
  artifactRef: string;
  sizeBytes: number;
  status: ArtifactStatus;
  removedReason: string | null;
}

export interface ArtifactAck {
  ackId: string;
  artifactRef: string;
  uploadId: string;
  agentId: string;
  signature: string;
  createdAt: Date;
}

export interface DeliveryReceipt {
  deliveryReceiptId: string;
  artifactRef: string;
  uploadId: string;
  agentId: string;
  sizeBytes: number;
  deliveredAt: Date;
  signature: string;
  signerPublicKey: string;
}

/** A page request as the use cases take it (`limit` 0/absent → default; `cursor` ""/absent → first page). */
export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** "" on the last page. */
  nextCursor: string;
}
