import { ART, ArtifactRef, ContractId, CTR, ENTRY_KINDS, ObjectId, PUB, SIG, T } from './registry.schemas';
import { AgentId, Cursor, Limit, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of attestation queries and exports, receipts and casefiles (building blocks in registry.schemas.ts).

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
