import { RECORD_KINDS } from '@exchange/casefile';
import { registryV1Wire } from '@exchange/proto';
import { AgentId, Cursor, Limit, NextCursor, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, type TSchema, Type } from 'typebox';

// REST shapes of the registry areas (issue 5: Registry objects, Artifacts, Attestations, receipts
// and casefiles, Aliases and identity reveals). The registry service owns the domain checks
// (signatures, access, reserved types, contract parties); shapes, enums and limits are refused here.

export const VISIBILITIES = registryV1Wire.visibility.names;
export type VisibilityName = (typeof VISIBILITIES)[number];
export const ARTIFACT_STATUSES = registryV1Wire.artifactStatus.names;
// Every kind a docket may hold (libs/casefile): the registry's and commerce's records, and artifacts.
export const ENTRY_KINDS = [...RECORD_KINDS, 'artifact'] as const;

export const T = '2026-11-21T18:00:00.000Z';
export const SIGNER = 'acme:agent:seller-1';
export const BUYER = 'acme:agent:buyer-1';
export const OBJ = 'sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';
export const ART = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
export const CTR = 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';
export const PUB = 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=';

export const Page = <S extends TSchema>(item: S, description: string, example: unknown) =>
  Type.Object({ data: Type.Array(item), next_cursor: NextCursor }, { additionalProperties: false, description, examples: [{ data: [example], next_cursor: null }] });

// ─── building blocks ────────────────────────────────────────────────────────────────────────

export const OBJECT_TYPE_PATTERN = '^[a-z][a-z0-9_.-]{0,63}$';
export const TAG_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
const Sha256Ref = (description: string, example: string) =>
  Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description, examples: [example] });
export const ObjectId = Sha256Ref('`sha256:<hex>` of canonical JSON of {type, payload, signer_agent_id}', OBJ);
export const ArtifactRef = Sha256Ref('`sha256:<hex>` of the bytes', ART);
export const ContractId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Contract id (`ctr_…`)', examples: [CTR] });
export const Signature = Type.String({ minLength: 1, maxLength: 256, description: 'Base64 ed25519 signature', examples: [SIG] });
export const Visibility = StringEnum(VISIBILITIES, { description: '`public` (everyone), `parties` (signer/uploader, listed parties, the linked contract’s buyer and awarded seller, operator) or `operator`' });
export const Parties = Type.Array(AgentId, { maxItems: 100, description: 'Agents who may read it besides the signer/uploader (≤ 100)' });
const ObjectType = Type.String({ pattern: OBJECT_TYPE_PATTERN, description: 'Object type `^[a-z][a-z0-9_.-]{0,63}$`; `attestation` objects carry `subject_ref` and `claim`', examples: ['attestation'] });
const Tags = Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: 20, description: '≤ 20 tags `^[a-z0-9][a-z0-9._-]{0,63}$`' });
export const MediaType = Type.String({
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

export const PageQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false });
