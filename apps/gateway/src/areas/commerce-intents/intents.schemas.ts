import { Type, type Static } from 'typebox';
import { Money } from '../../lib/market/market.schemas';
import { AgentId, Timestamp } from '../../schemas/common';
import { AmountOut, IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of commerce intents (AP2 IntentMandate: what an agent set out to buy) and purchase
// feedback. Commerce checks the rules (400 `validation_failed`, `invalid_amount`, …); here the
// outline and sizes.

const T = '2026-11-25T10:00:00.000Z';
const INTENT = 'int_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const AGENT = 'acme:agent:buyer-1';
const DEAL = 'deal_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const MERCHANT = 'sandbox-merchant.local';

const List = (description: string, example: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100, description, examples: [[example]] });

export const CreateIntentBody = Type.Object(
  {
    agent_id: Type.Optional({ ...AgentId, description: 'The buyer agent the intent is for; defaults to the acting agent (another agent: 403 `acting_agent_mismatch`); required for the operator' }),
    description: Type.String({ minLength: 1, maxLength: 2000, description: 'What the agent is to buy, in words (AP2 `natural_language_description`), 1-2000 characters' }),
    merchants: Type.Optional(List('Merchant domains a session may be at (absent or empty: any)', MERCHANT)),
    skus: Type.Optional(List('Item ids a session may contain (absent or empty: any)', 'bouquet_roses')),
    budget: { ...Money, description: 'The most ONE checkout session under the intent may total (decimal string and currency)' },
    requires_refundability: Type.Optional(Type.Boolean({ description: 'Only merchants whose UCP profile has `dev.ucp.shopping.order` (default false)' })),
    expires_at: { ...Timestamp, description: 'RFC 3339, in the future and at most 366 days ahead' },
    idempotency_key: Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        description: 'Two bouquets of red roses for the office',
        merchants: [MERCHANT],
        skus: ['bouquet_roses'],
        budget: { amount: '100', currency: 'USD' },
        requires_refundability: true,
        expires_at: '2026-12-01T00:00:00.000Z',
      },
    ],
  },
);
export type CreateIntentBodyJson = Static<typeof CreateIntentBody>;

const intentExample = {
  intent_id: INTENT,
  agent_id: AGENT,
  description: 'Two bouquets of red roses for the office',
  merchants: [MERCHANT],
  skus: ['bouquet_roses'],
  budget: { amount: '100', currency: 'USD' },
  requires_refundability: true,
  expires_at: '2026-12-01T00:00:00.000Z',
  created_at: T,
};

export const Intent = Type.Object(
  {
    intent_id: Type.String(),
    agent_id: Type.String(),
    description: Type.String(),
    merchants: Type.Array(Type.String()),
    skus: Type.Array(Type.String()),
    budget: Type.Object({ amount: AmountOut, currency: Type.String() }, { additionalProperties: false }),
    requires_refundability: Type.Boolean(),
    expires_at: Timestamp,
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A commerce intent (AP2 IntentMandate); checkouts name it with `intent_id`', examples: [intentExample] },
);
export type IntentJson = Static<typeof Intent>;

export const RecordFeedbackBody = Type.Object(
  {
    deal_id: Type.String({ minLength: 1, maxLength: 200, description: 'The purchase (`deal_id` of the completed checkout)', examples: [DEAL] }),
    rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (worst) to 5 (best)' }),
    comment: Type.Optional(Type.String({ maxLength: 2000, description: 'At most 2000 characters (default empty)' })),
  },
  { additionalProperties: false, examples: [{ deal_id: DEAL, rating: 5, comment: 'Fresh flowers, on time' }] },
);
export type RecordFeedbackBodyJson = Static<typeof RecordFeedbackBody>;

const feedbackExample = {
  feedback_id: 'fbk_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  deal_id: DEAL,
  buyer_agent_id: AGENT,
  merchant_domain: MERCHANT,
  rating: 5,
  comment: 'Fresh flowers, on time',
  created_at: T,
};

export const Feedback = Type.Object(
  {
    feedback_id: Type.String(),
    deal_id: Type.String(),
    buyer_agent_id: Type.String(),
    merchant_domain: Type.String(),
    rating: Type.Integer(),
    comment: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A buyer’s feedback on one purchase (once per deal)', examples: [feedbackExample] },
);
export type FeedbackJson = Static<typeof Feedback>;
