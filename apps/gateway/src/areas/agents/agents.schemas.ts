import { identityV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, PublicKey, Reason, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of the Agents area (common brief "Public REST shapes"; spec §2 Agent payload).

// The enums' REST names, in proto order, from the tables generated from identity.proto.
export const IDENTITY_LEVELS = identityV1Wire.identityLevel.names;
export type IdentityLevelName = (typeof IDENTITY_LEVELS)[number];

export const AGENT_STATUSES = identityV1Wire.agentStatus.names;
export const KEY_STATUSES = identityV1Wire.keyStatus.names;

export const IdentityLevel = StringEnum(IDENTITY_LEVELS, { description: 'Identity level', examples: ['SANDBOX_UNVERIFIED'] });

const EXAMPLE_PUBKEY = 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=';
const EXAMPLE_TIME = '2026-11-21T18:00:00.000Z';

export const AgentKey = Type.Object(
  {
    pubkey: Type.String(),
    primary: Type.Boolean(),
    status: StringEnum(KEY_STATUSES),
    added_at: Timestamp,
    revoked_at: Nullable(Timestamp),
    revoked_reason: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const agentExample = {
  agent_id: 'acme:agent:buyer-1',
  primary_pubkey: EXAMPLE_PUBKEY,
  pubkey_set: [],
  keys: [{ pubkey: EXAMPLE_PUBKEY, primary: true, status: 'active', added_at: EXAMPLE_TIME, revoked_at: null, revoked_reason: null }],
  identity_level: 'SANDBOX_UNVERIFIED',
  status: 'active',
  frozen_reason: null,
  created_at: EXAMPLE_TIME,
  updated_at: EXAMPLE_TIME,
};

export const Agent = Type.Object(
  {
    agent_id: Type.String(),
    primary_pubkey: Type.String(),
    pubkey_set: Type.Array(Type.String(), { description: 'Non-primary keys, active and revoked' }),
    keys: Type.Array(AgentKey),
    identity_level: IdentityLevel,
    status: StringEnum(AGENT_STATUSES),
    frozen_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'An agent identity', examples: [agentExample] },
);
export type AgentJson = Static<typeof Agent>;

export const RegisterAgentBody = Type.Object(
  {
    agent_id: AgentId,
    primary_pubkey: PublicKey,
    pubkey_set: Type.Optional(Type.Array(PublicKey, { maxItems: 16, description: 'Additional keys for rotation (default [])' })),
    identity_level: Type.Optional(IdentityLevel),
    proof_nonce: Type.String({ minLength: 1, maxLength: 255, description: 'Single-use value included in the proof (1-255 printable ASCII characters)' }),
    proof_signature: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Base64 ed25519 signature over canonical {"agent_id","primary_pubkey","proof_nonce"}',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        // The worked example of /skill.md (seed 0x01..0x20): a real, verifiable proof.
        agent_id: 'example:agent:skill-demo',
        primary_pubkey: 'ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=',
        pubkey_set: [],
        identity_level: 'SANDBOX_UNVERIFIED',
        proof_nonce: 'skill-example-nonce-0001',
        proof_signature: 'rMKmcsGT9w8Sk6iXIPr62zWLfI6m5KovhMFS1hHH6dSizo54z3Z56FZE2aVKr2xksuM5IzTN3j2w2aBwqevMAw==',
      },
    ],
  },
);
export type RegisterAgentBodyJson = Static<typeof RegisterAgentBody>;

export const AgentParams = Type.Object({ agent_id: AgentId }, { additionalProperties: false });

export const AgentKeyParams = Type.Object(
  {
    agent_id: AgentId,
    pubkey: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'The key, URL-encoded standard base64 (base64url accepted too)',
    }),
  },
  { additionalProperties: false },
);

export const ListAgentsQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    identity_level: Type.Optional(IdentityLevel),
    status: Type.Optional(StringEnum(AGENT_STATUSES)),
  },
  { additionalProperties: false },
);

export const PageQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);

export const AgentPage = Type.Object(
  { data: Type.Array(Agent), next_cursor: NextCursor },
  { additionalProperties: false, description: 'A page of agents, newest first', examples: [{ data: [agentExample], next_cursor: null }] },
);

export const ChangeIdentityLevelBody = Type.Object(
  { identity_level: IdentityLevel, reason: Reason },
  { additionalProperties: false, examples: [{ identity_level: 'MAINNET_BASIC', reason: 'KYC passed' }] },
);

export const ReasonBody = Type.Object(
  { reason: Reason },
  { additionalProperties: false, examples: [{ reason: 'fraud review' }] },
);

export const IdentityTransition = Type.Object(
  {
    transition_id: Type.String(),
    agent_id: Type.String(),
    from_level: Nullable(IdentityLevel, { description: 'null for the level set at registration' }),
    to_level: IdentityLevel,
    reason: Type.String(),
    actor: Type.String({ description: 'Who made the change, e.g. operator:default' }),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type IdentityTransitionJson = Static<typeof IdentityTransition>;

export const IdentityTransitionPage = Type.Object(
  { data: Type.Array(IdentityTransition), next_cursor: NextCursor },
  {
    additionalProperties: false,
    description: 'A page of identity level changes, newest first',
    examples: [
      {
        data: [
          {
            transition_id: 'itr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
            agent_id: 'acme:agent:buyer-1',
            from_level: 'SANDBOX_UNVERIFIED',
            to_level: 'MAINNET_BASIC',
            reason: 'KYC passed',
            actor: 'operator:default',
            created_at: EXAMPLE_TIME,
          },
        ],
        next_cursor: null,
      },
    ],
  },
);
