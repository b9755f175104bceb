import { Type, type Static } from 'typebox';
import { Cursor, Limit, NextCursor, StringEnum } from '../../schemas/common';
import { IntegrityReason } from '../integrity/integrity.schemas';
import { RESALE_REVIEW_STATUSES, ResaleReview, resaleReviewExample } from '../contracts/contracts.schemas';
import { IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of the operator's decisions on contracts (issue 6 §7): buyer alias updates and
// resale lineage reviews.

const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });

export const UpdateBuyerAliasBody = Type.Object(
  {
    reason: IntegrityReason,
    buyer_private: Type.Optional(
      Type.Boolean({ default: true, description: 'true (default): mint a fresh buyer alias (new generation); false: make the buyer visible' }),
    ),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ reason: 'alias leaked in a public thread', buyer_private: true }] },
);
export type UpdateBuyerAliasBodyJson = Static<typeof UpdateBuyerAliasBody>;

export const DecisionParams = Type.Object(
  {
    decision_ref: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Review id (`rld_…`)', examples: [resaleReviewExample.decision_ref] }),
  },
  { additionalProperties: false },
);

export const ListResaleReviewsQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    status: Type.Optional(StringEnum(RESALE_REVIEW_STATUSES)),
    contract_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' })),
  },
  { additionalProperties: false },
);

export const DecideResaleReviewBody = Type.Object(
  {
    decision: StringEnum(['approve', 'reject'] as const, { description: '`approve` lets awards happen; `reject` cancels the resale contract' }),
    reason: IntegrityReason,
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ decision: 'approve', reason: 'lineage checked: distinct sellers, same scope' }] },
);
export type DecideResaleReviewBodyJson = Static<typeof DecideResaleReviewBody>;

export const ResaleReviewPage = Type.Object(
  { data: Type.Array(ResaleReview), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Resale lineage reviews', examples: [{ data: [resaleReviewExample], next_cursor: null }] },
);
