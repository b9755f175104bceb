import { Reference } from './funds.schemas';
import { AGENT, Amount, AmountOut, Currency, DEPOSIT_METHODS, DEPOSIT_STATUSES, IdempotencyKey, JRN, PAYOUT_DESTINATION_TYPES, T, WITHDRAWAL_STATUSES } from './wallets.schemas';
import { NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of money in and out: deposits, payout destinations, withdrawals (formats in wallets.schemas.ts).

export const CreateDepositBody = Type.Object(
  {
    amount: Amount,
    currency: Currency,
    method: StringEnum(DEPOSIT_METHODS, { description: 'How the funds arrive' }),
    reference: Type.Optional(Reference),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  {
    additionalProperties: false,
    examples: [{ amount: '100', currency: 'CREDIT', method: 'sandbox', reference: 'wire-77', idempotency_key: 'deposit-001' }],
  },
);
export type CreateDepositBodyJson = Static<typeof CreateDepositBody>;

export const CreatePayoutDestinationBody = Type.Object(
  {
    type: StringEnum(PAYOUT_DESTINATION_TYPES),
    details: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), Type.String({ maxLength: 1024 }), {
      maxProperties: 32,
      description:
        'Rail details, e.g. `{"iban": …}` or `{"address": …}`. A `crypto_address` equal to one of your signing keys is ' +
        'refused (400 `signing_key_reuse`). Sandbox: `{"simulate": "fail"}` makes withdrawals to it fail.',
    }),
    label: Type.String({ minLength: 1, maxLength: 200, examples: ['main account'] }),
    idempotency_key: Type.Optional({ ...IdempotencyKey, description: 'Optional here (not a balance mutation); same rules when present' }),
  },
  {
    additionalProperties: false,
    examples: [{ type: 'sandbox', details: { account: 'sbx-001' }, label: 'sandbox payouts', idempotency_key: 'pod-001' }],
  },
);
export type CreatePayoutDestinationBodyJson = Static<typeof CreatePayoutDestinationBody>;

export const CreateWithdrawalBody = Type.Object(
  {
    amount: Amount,
    currency: Currency,
    payout_destination_id: Type.String({ minLength: 1, maxLength: 128, examples: ['pod_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e'] }),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  {
    additionalProperties: false,
    examples: [{ amount: '25', currency: 'CREDIT', payout_destination_id: 'pod_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', idempotency_key: 'wdr-001' }],
  },
);
export type CreateWithdrawalBodyJson = Static<typeof CreateWithdrawalBody>;

const depositExample = {
  deposit_id: 'dep_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  agent_id: AGENT,
  amount: '100',
  currency: 'CREDIT',
  method: 'sandbox',
  reference: 'wire-77',
  status: 'pending',
  journal_entry_id: null,
  created_at: T,
  updated_at: T,
};

export const Deposit = Type.Object(
  {
    deposit_id: Type.String(),
    agent_id: Type.String(),
    amount: AmountOut,
    currency: Type.String(),
    method: StringEnum(DEPOSIT_METHODS),
    reference: Nullable(Type.String()),
    status: StringEnum(DEPOSIT_STATUSES),
    journal_entry_id: Nullable(Type.String(), { description: 'Set once confirmed (the credit)' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A deposit request: pending → confirmed | expired', examples: [depositExample] },
);
export type DepositJson = Static<typeof Deposit>;

export const DepositPage = Type.Object(
  { data: Type.Array(Deposit), next_cursor: NextCursor },
  { additionalProperties: false, description: 'A page of deposits, newest first', examples: [{ data: [depositExample], next_cursor: null }] },
);

const payoutDestinationExample = {
  payout_destination_id: 'pod_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  agent_id: AGENT,
  type: 'sandbox',
  details: { account: 'sbx-001' },
  label: 'sandbox payouts',
  created_at: T,
};

export const PayoutDestination = Type.Object(
  {
    payout_destination_id: Type.String(),
    agent_id: Type.String(),
    type: StringEnum(PAYOUT_DESTINATION_TYPES),
    details: Type.Record(Type.String(), Type.String()),
    label: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'Where withdrawals are paid', examples: [payoutDestinationExample] },
);
export type PayoutDestinationJson = Static<typeof PayoutDestination>;

export const PayoutDestinationPage = Type.Object(
  { data: Type.Array(PayoutDestination), next_cursor: NextCursor },
  {
    additionalProperties: false,
    description: 'A page of payout destinations, newest first',
    examples: [{ data: [payoutDestinationExample], next_cursor: null }],
  },
);

export const Withdrawal = Type.Object(
  {
    withdrawal_id: Type.String(),
    agent_id: Type.String(),
    amount: AmountOut,
    currency: Type.String(),
    payout_destination_id: Type.String(),
    status: StringEnum(WITHDRAWAL_STATUSES),
    failure_reason: Nullable(Type.String()),
    journal_entry_ids: Type.Array(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'requested (funds held) → processing → completed | failed (refunded); cancel only from requested',
    examples: [
      {
        withdrawal_id: 'wdr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        agent_id: AGENT,
        amount: '25',
        currency: 'CREDIT',
        payout_destination_id: 'pod_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        status: 'requested',
        failure_reason: null,
        journal_entry_ids: [JRN],
        created_at: T,
        updated_at: T,
      },
    ],
  },
);
export type WithdrawalJson = Static<typeof Withdrawal>;
