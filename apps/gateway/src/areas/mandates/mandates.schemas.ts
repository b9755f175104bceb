import { commerceV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { Money } from '../../lib/market/market.schemas';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { Amount, AmountOut, Currency, IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of spending mandates (DESIGN §4 Commerce; AP2-style): what a signer lets an agent
// buy (scope), how much (limits), until when, and how autonomously (step-up approval). Amounts
// are decimal strings; commerce checks them (400 `invalid_amount`) and the signature.

const T = '2026-11-21T18:00:00.000Z';
const MANDATE = 'mdt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const SIGNER = 'acme:agent:owner';
const AGENT = 'acme:agent:buyer-1';

const MandateId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Mandate id (`mdt_…`)', examples: [MANDATE] });
const ScopeList = (description: string, example: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100, description, examples: [[example]] });

export const MandateParams = Type.Object({ mandate_id: MandateId }, { additionalProperties: false });
export const ListMandatesQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    signer_agent_id: Type.Optional(AgentId),
    status: Type.Optional(StringEnum(commerceV1Wire.mandateStatus.names)),
  },
  { additionalProperties: false },
);

const autonomyExample = { mode: 'step_up', step_up_threshold: { amount: '50', currency: 'USD' }, approval_for_new_merchants: true, daily_limit: '200' };

export const AutonomyBody = Type.Object(
  {
    mode: StringEnum(commerceV1Wire.autonomyMode.names, { description: '`autonomous`, `step_up` (approval above the threshold) or `manual` (approval always)' }),
    step_up_threshold: Type.Optional({ ...Money, description: 'Totals above this need the signer’s approval: required for mode `step_up`, optional otherwise' }),
    approval_for_new_merchants: Type.Boolean({ description: 'A merchant never bought from under this mandate needs approval' }),
    daily_limit: Type.Optional({ ...Amount, description: 'At most this much per UTC day under the mandate (decimal string)' }),
  },
  { additionalProperties: false, examples: [autonomyExample] },
);
export type AutonomyBodyJson = Static<typeof AutonomyBody>;

export const CreateMandateBody = Type.Object(
  {
    signer_agent_id: { ...AgentId, description: 'Who grants the mandate; must be the acting agent (403 `acting_agent_mismatch`)' },
    agent_id: { ...AgentId, description: 'The buyer agent the mandate is for' },
    scope: Type.Object(
      {
        merchants: ScopeList('Merchant domains (empty: any)', 'sandbox-merchant.local'),
        categories: ScopeList('Item categories (empty: any)', 'coffee'),
        skus: ScopeList('Item ids (empty: any)', 'sku-espresso-beans-1kg'),
      },
      { additionalProperties: false },
    ),
    limits: Type.Object(
      {
        per_transaction: { ...Amount, description: 'Largest checkout total (decimal string)' },
        total: { ...Amount, description: 'Largest sum of every purchase under the mandate (decimal string)' },
        currency: Currency,
      },
      { additionalProperties: false },
    ),
    expires_at: Timestamp,
    signature: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Base64 ed25519 by `signer_agent_id` over the canonical mandate (/skill.md "Mandates"); else 400 `mandate_signature_invalid`',
    }),
    autonomy: Type.Optional(AutonomyBody),
    idempotency_key: Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        signer_agent_id: SIGNER,
        agent_id: AGENT,
        scope: { merchants: ['sandbox-merchant.local'], categories: [], skus: [] },
        limits: { per_transaction: '100', total: '500', currency: 'USD' },
        expires_at: '2027-01-01T00:00:00.000Z',
        signature: 'MEUCIQDx…',
        autonomy: autonomyExample,
      },
    ],
  },
);

const AutonomyFields = {
  mode: StringEnum(commerceV1Wire.autonomyMode.names),
  step_up_threshold: Nullable(Type.Object({ amount: AmountOut, currency: Type.String() }, { additionalProperties: false }), { description: 'null: no threshold' }),
  approval_for_new_merchants: Type.Boolean(),
  daily_limit: Nullable(AmountOut, { description: 'Per UTC day; null: no daily limit' }),
};
export const MandateStatusBody = Type.Object(
  {
    status: StringEnum(['active', 'paused', 'revoked'] as const, { description: '`paused` (stop spending), `active` (resume; the signer only) or `revoked` (final)' }),
  },
  { additionalProperties: false, examples: [{ status: 'revoked' }] },
);

export const Autonomy = Type.Object(AutonomyFields, { additionalProperties: false, description: 'How autonomously the agent may buy under a mandate', examples: [autonomyExample] });
export type AutonomyJson = Static<typeof Autonomy>;

export const MandateAutonomy = Type.Object(
  { mandate_id: Type.String(), autonomy: Autonomy },
  { additionalProperties: false, description: 'A mandate’s autonomy settings', examples: [{ mandate_id: MANDATE, autonomy: autonomyExample }] },
);

const mandateExample = {
  mandate_id: MANDATE,
  signer_agent_id: SIGNER,
  agent_id: AGENT,
  scope: { merchants: ['sandbox-merchant.local'], categories: [], skus: [] },
  limits: { per_transaction: '100', total: '500', currency: 'USD' },
  expires_at: '2027-01-01T00:00:00.000Z',
  signature: 'MEUCIQDx…',
  status: 'active',
  spent: '34.2',
  reserved: '0',
  autonomy: autonomyExample,
  created_at: T,
  updated_at: T,
};

export const Mandate = Type.Object(
  {
    mandate_id: Type.String(),
    signer_agent_id: Type.String(),
    agent_id: Type.String(),
    scope: Type.Object({ merchants: Type.Array(Type.String()), categories: Type.Array(Type.String()), skus: Type.Array(Type.String()) }, { additionalProperties: false }),
    limits: Type.Object({ per_transaction: AmountOut, total: AmountOut, currency: Type.String() }, { additionalProperties: false }),
    expires_at: Timestamp,
    signature: Type.String(),
    status: StringEnum(commerceV1Wire.mandateStatus.names),
    spent: { ...AmountOut, description: 'Spent under the mandate (completed purchases)' },
    reserved: { ...AmountOut, description: 'Held by completes in flight' },
    autonomy: Autonomy,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A spending mandate (AP2-style)', examples: [mandateExample] },
);
export type MandateJson = Static<typeof Mandate>;

export const MandatePage = Type.Object(
  { data: Type.Array(Mandate), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Mandates, newest first', examples: [{ data: [mandateExample], next_cursor: null }] },
);
