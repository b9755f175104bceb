import { Type, type Static, type TSchema } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of the registry areas (issue 5: Registry objects, Artifacts, Attestations, receipts
// and casefiles, Aliases and identity reveals). The registry service owns the domain checks
// (signatures, access, reserved types, contract parties); shapes, enums and limits are refused here.

export const VISIBILITIES = ['public', 'parties', 'operator'] as const;
export type VisibilityName = (typeof VISIBILITIES)[number];
export const ARTIFACT_STATUSES = ['active', 'removed'] as const;
export const ENTRY_KINDS = [
  'contract', 'offer', 'result', 'verification_report', 'dispute', 'receipt', 'object', 'attestation', 'delivery_receipt', 'ack', 'artifact',
] as const;

const T = '2026-11-21T18:00:00.000Z';
const SIGNER = 'acme:agent:seller-1';
const BUYER = 'acme:agent:buyer-1';
const OBJ = 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';
const ART = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';
const PUB = 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=';

const Page = <S extends TSchema>(item: S, description: string, example: unknown) =>
  Type.Object({ data: Type.Array(item), next_cursor: NextCursor }, { additionalProperties: false, description, examples: [{ data: [example], next_cursor: null }] });

// ─── building blocks ────────────────────────────────────────────────────────────────────────

export const OBJECT_TYPE_PATTERN = '^[a-z][a-z0-9_.-]{0,63}$';
export const TAG_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
const Sha256Ref = (description: string, example: string) =>
  Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description, examples: [example] });
export const ObjectId = Sha256Ref('`sha256:<hex>` of canonical JSON of {type, payload, signer_agent_id}', OBJ);
export const ArtifactRef = Sha256Ref('`sha256:<hex>` of the bytes', ART);
const ContractId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Contract id (`ctr_…`)', examples: [CTR] });
const Signature = Type.String({ minLength: 1, maxLength: 256, description: 'Base64 ed25519 signature', examples: [SIG] });
const Visibility = StringEnum(VISIBILITIES, { description: '`public` (everyone), `parties` (signer/uploader, listed parties, the linked contract’s buyer and awarded seller, operator) or `operator`' });
const Parties = Type.Array(AgentId, { maxItems: 100, description: 'Agents who may read it besides the signer/uploader (≤ 100)' });
const ObjectType = Type.String({ pattern: OBJECT_TYPE_PATTERN, description: 'Object type `^[a-z][a-z0-9_.-]{0,63}$`; `attestation` objects carry `subject_ref` and `claim`', examples: ['attestation'] });
const Tags = Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: 20, description: '≤ 20 tags `^[a-z0-9][a-z0-9._-]{0,63}$`' });
const MediaType = Type.String({
  minLength: 3,
  maxLength: 255,
  pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+(\\s*;.*)?$',
  description: 'MIME type of the bytes (served back as Content-Type)',
  examples: ['application/json'],
});

export const ObjectParams = Type.Object({ object_id: ObjectId }, { additionalProperties: false });
export const ArtifactParams = Type.Object({ artifact_ref: ArtifactRef }, { additionalProperties: false });

// ─── objects ────────────────────────────────────────────────────────────────────────────────

export const StoreObjectBody = Type.Object(
  {
    type: ObjectType,
    payload: Type.Unknown({ description: 'Any JSON value (the body is at most 1 MiB); signed as canonical JSON' }),
    signer_agent_id: Type.Optional({ ...AgentId, description: 'Defaults to the acting agent; another agent is 403 `acting_agent_mismatch`' }),
    signature: Signature,
    visibility: Type.Optional({ ...Visibility, default: 'public' }),
    parties: Type.Optional(Parties),
    tags: Type.Optional(Tags),
  },
  {
    additionalProperties: false,
    examples: [
      {
        type: 'attestation',
        payload: { subject_ref: ART, claim: 'reviewed: no secrets in the dataset' },
        signature: SIG,
        visibility: 'public',
        tags: ['review'],
      },
    ],
  },
);
export type StoreObjectBodyT = Static<typeof StoreObjectBody>;

const objectExample = {
  object_id: OBJ,
  type: 'attestation',
  payload: { subject_ref: ART, claim: 'reviewed: no secrets in the dataset' },
  signer_agent_id: SIGNER,
  signature: SIG,
  signer_public_key: PUB,
  visibility: 'public',
  parties: [],
  tags: ['review'],
  created_at: T,
};

export const RegistryObject = Type.Object(
  {
    object_id: ObjectId,
    type: Type.String(),
    payload: Type.Unknown({ description: 'The signed JSON value' }),
    signer_agent_id: Type.String({ description: 'The signing agent, or `exchange` for exchange-signed objects' }),
    signature: Type.String({ description: 'Base64 ed25519 over canonical JSON of `payload`' }),
    signer_public_key: Type.String({ description: 'The key that verified the signature' }),
    visibility: Visibility,
    parties: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A signed, content-addressed registry object', examples: [objectExample] },
);
export type RegistryObjectJson = Static<typeof RegistryObject>;
export const ObjectPage = Page(RegistryObject, 'A page of objects', objectExample);

export const ListObjectsQuery = Type.Object(
  {
    type: Type.Optional(ObjectType),
    tag: Type.Optional(Type.String({ pattern: TAG_PATTERN })),
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);

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
export const PageQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false });

export const ReasonBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why (kept in the audit log)' }) },
  { additionalProperties: false, examples: [{ reason: 'DMCA notice 2026-117' }] },
);

// ─── attestations, receipts and casefiles ───────────────────────────────────────────────────

const AttestationFilters = {
  subject_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The attested subject (an artifact ref, object id, contract id, …)' })),
  signer_agent_id: Type.Optional(AgentId),
  from: Type.Optional({ ...Timestamp, description: 'created_at ≥ from' }),
  to: Type.Optional({ ...Timestamp, description: 'created_at < to' }),
};
export const AttestationQueryBody = Type.Object(
  { ...AttestationFilters, limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
  { additionalProperties: false, examples: [{ subject_ref: ART, limit: 50 }] },
);
export const AttestationExportBody = Type.Object(AttestationFilters, { additionalProperties: false, examples: [{ subject_ref: ART }] });

const DocketEntry = Type.Object(
  {
    kind: StringEnum(ENTRY_KINDS),
    ref: Type.String(),
    sha256: Type.String({ description: 'Hex sha256: of canonical JSON of `content` (records) or of the bytes (artifacts)' }),
    media_type: Type.Optional(Type.String()),
    size_bytes: Type.Optional(Type.Integer()),
    content: Type.Optional(Type.Unknown({ description: 'The record as the public API shows it (records only)' })),
  },
  { additionalProperties: true },
);
export const Docket = Type.Object(
  {
    docket_id: Type.String({ description: '`dkt_…`' }),
    subject: Type.Unknown({ description: 'What was exported' }),
    entries: Type.Array(DocketEntry),
    created_at: Timestamp,
    exchange_pubkey: Type.String({ description: 'Base64 public key of the exchange key that signed it' }),
    signature: Type.String({ description: 'Base64 ed25519 over canonical JSON of the docket without `signature`' }),
  },
  { additionalProperties: true, description: 'A casefile docket, signed by the exchange key' },
);
const docketExample = {
  docket_id: 'dkt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  subject: { contract_id: CTR },
  entries: [{ kind: 'artifact', ref: ART, sha256: ART.slice(7), media_type: 'application/json', size_bytes: 17 }],
  created_at: T,
  exchange_pubkey: PUB,
  signature: SIG,
};
export const DocketExport = Type.Object(
  {
    docket: Docket,
    archive_base64: Type.String({ description: 'The .tar.gz archive: docket.json (canonical JSON) + payloads/<sha256 hex> per included artifact' }),
  },
  { additionalProperties: false, description: 'A signed docket and its .tar.gz archive', examples: [{ docket: docketExample, archive_base64: 'H4sIAAAAAAAAA+3…' }] },
);

export type DocketExportJson = Static<typeof DocketExport>;

export const ReceiptsExportBody = Type.Object(
  {
    receipt_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 1000 })),
    contract_id: Type.Optional(ContractId),
  },
  { additionalProperties: false, examples: [{ contract_id: CTR }] },
);

export const CasefileExportBody = Type.Object(
  {
    subject: Type.Object(
      {
        contract_id: Type.Optional(ContractId),
        object_ids: Type.Optional(Type.Array(ObjectId, { maxItems: 1000 })),
        artifact_refs: Type.Optional(Type.Array(ArtifactRef, { maxItems: 1000 })),
      },
      { additionalProperties: false, description: 'At least one of contract_id, object_ids, artifact_refs' },
    ),
    include_payloads: Type.Optional(Type.Boolean({ default: false, description: 'Put artifact bytes in the archive' })),
  },
  { additionalProperties: false, examples: [{ subject: { contract_id: CTR }, include_payloads: true }] },
);

export const CasefileVerifyBody = Type.Object(
  {
    docket: Type.Optional(Type.Unknown({ description: 'A docket (JSON object)' })),
    archive_base64: Type.Optional(Type.String({ minLength: 1, description: 'A .tar.gz casefile archive, base64' })),
    exchange_public_key: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Base64 key to trust; default: this exchange’s key' })),
  },
  { additionalProperties: false, description: 'Exactly one of `docket` and `archive_base64`', examples: [{ archive_base64: 'H4sIAAAAAAAAA+3…' }] },
);
export const CasefileVerdict = Type.Object(
  {
    valid: Type.Boolean(),
    docket_id: Type.String(),
    checks: Type.Array(
      Type.Object({ ref: Type.String({ description: 'Entry ref, or `docket` / `signature`' }), ok: Type.Boolean(), reason: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The verdict: valid when every check is ok',
    examples: [{ valid: false, docket_id: 'dkt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', checks: [{ ref: 'docket', ok: true }, { ref: 'signature', ok: true }, { ref: ART, ok: false, reason: 'sha256 mismatch' }] }],
  },
);

// ─── aliases and identity reveals ───────────────────────────────────────────────────────────

export const ROLES = ['buyer', 'seller'] as const;
export type RoleName = (typeof ROLES)[number];
const Alias = Type.String({ pattern: '^anon:[a-z2-7]{12}$', description: '`anon:` + 12 base32 characters', examples: ['anon:k3xq7m2pz4ab'] });

export const MintAliasBody = Type.Object(
  { contract_id: ContractId, role: StringEnum(ROLES) },
  { additionalProperties: false, examples: [{ contract_id: CTR, role: 'buyer' }] },
);
export const AliasToken = Type.Object(
  {
    object_id: ObjectId,
    alias: Type.String(),
    contract_id: Type.String(),
    role: StringEnum(ROLES),
    payload: Type.Unknown({ description: '{alias, contract_id, role}' }),
    signature: Type.String({ description: 'Base64 ed25519 by the exchange key over canonical JSON of `payload`' }),
    signer_public_key: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'A party alias token, exchange-signed',
    examples: [{ object_id: OBJ, alias: 'anon:k3xq7m2pz4ab', contract_id: CTR, role: 'buyer', payload: { alias: 'anon:k3xq7m2pz4ab', contract_id: CTR, role: 'buyer' }, signature: SIG, signer_public_key: PUB }],
  },
);
export const MintRevealBody = Type.Object(
  { contract_id: ContractId, alias: Alias, reveal_to: AgentId },
  { additionalProperties: false, examples: [{ contract_id: CTR, alias: 'anon:k3xq7m2pz4ab', reveal_to: SIGNER }] },
);
