// Shapes of the registry area as the gateway returns them (common5.md "Shared shapes"), generated
// from /openapi.json (see wire.ts); the names here are the SDK's public names for them.
import type { Docket } from '@exchange/casefile';
import type { api, Narrow } from './wire';

/** A signed registry object. `object_id` = "sha256:" + hex sha256 of canonicalize({type, payload, signer_agent_id}). */
export type RegistryObject<P = unknown> = Narrow<api.RegistryObject, { payload: P }>;
export type ObjectVisibility = api.RegistryObject['visibility'];

export type Artifact = api.Artifact;
export type ArtifactAccess = Artifact['access'];
export type ArtifactStatus = Artifact['status'];
export type ArtifactEnvelope = NonNullable<Artifact['envelope']>;
/** GET /v1/artifacts/{ref}/envelope. */
export type ArtifactEnvelopeView = api.ArtifactEnvelope;

/** A downloaded artifact: its bytes and what the response headers said. */
export interface ArtifactDownload {
  bytes: Buffer;
  artifactRef: string;
  mediaType: string;
  sizeBytes: number;
  /** `"sha256:…"` as sent in ETag (quotes removed). */
  etag: string | null;
}

export type Ack = api.Ack;
/** Exchange-signed proof that an agent downloaded an artifact. */
export type DeliveryReceipt = api.DeliveryReceipt;

/** An attestation is an object of type `attestation` whose payload has `subject_ref` and `claim`. */
export interface AttestationPayload {
  subject_ref: string;
  claim: unknown;
  [key: string]: unknown;
}

/**
 * Exports answer the signed docket and its .tar.gz archive (base64). The docket is typed as
 * @exchange/casefile reads and verifies it (`verifyDocket`), which is stricter than the document.
 */
export type CasefileExport = Omit<api.DocketExport, 'docket'> & { docket: Docket };

export type CasefileVerdict = api.CasefileVerdict;

export type PartyAliasToken = Narrow<api.AliasToken, { payload: Record<string, unknown> }>;
export type PartyRole = PartyAliasToken['role'];

export interface IdentityRevealPayload {
  alias: string;
  agent_id: string;
  contract_id: string;
  reveal_to: string;
}
