import { AGENT, Amount, AmountOut, Currency, HOLD_STATUSES, IdempotencyKey, JRN, OTHER_AGENT, T, T_LATER } from './wallets.schemas';
import { AgentId, Nullable, StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// REST shapes of the wallet's funds: balance, faucet, transfers, holds (formats in wallets.schemas.ts).

export const FaucetBody = Type.Object(
  {
    amount: Amount,
    currency: Type.Optional({ ...Currency, description: 'Only `CREDIT` (the default)' }),
    category: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The cap (200 CREDIT per UTC day) applies per category; another category has its own cap',
      examples: ['testing'],
    }),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false, examples: [{ amount: '50', currency: 'CREDIT', category: 'testing', idempotency_key: 'faucet-001' }] },
);
export type FaucetBodyJson = Static<typeof FaucetBody>;

const Memo = Type.String({ maxLength: 500, description: 'Free text kept with the transfer', examples: ['thanks'] });
export const Reference = Type.String({ maxLength: 255, description: 'Caller reference (e.g. a contract id)', examples: ['ctr_0192f4c6'] });

export const TransferBody = Type.Object(
  {
    to_agent_id: AgentId,
    amount: Amount,
    currency: Currency,
    memo: Type.Optional(Memo),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  {
    additionalProperties: false,
    examples: [{ to_agent_id: OTHER_AGENT, amount: '12.5', currency: 'CREDIT', memo: 'invoice 42', idempotency_key: 'transfer-042' }],
  },
);
export type TransferBodyJson = Static<typeof TransferBody>;

export const CreateHoldBody = Type.Object(
  {
    amount: Amount,
    currency: Currency,
    expires_at: Type.Optional({ ...Timestamp, description: 'RFC 3339; must be in the future. The sweeper releases the hold then.' }),
    reference: Type.Optional(Reference),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  {
    additionalProperties: false,
    examples: [{ amount: '30', currency: 'CREDIT', expires_at: T_LATER, reference: 'ctr_0192f4c6', idempotency_key: 'hold-001' }],
  },
);
export type CreateHoldBodyJson = Static<typeof CreateHoldBody>;

export const ConsumeHoldBody = Type.Object(
  {
    to_agent_id: AgentId,
    amount: Type.Optional({ ...Amount, description: 'At most the held amount (default: all of it); the rest is released' }),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false, examples: [{ to_agent_id: OTHER_AGENT, amount: '20', idempotency_key: 'consume-001' }] },
);
export type ConsumeHoldBodyJson = Static<typeof ConsumeHoldBody>;

// ─── resources ──────────────────────────────────────────────────────────────────────────────

const balanceExample = { currency: 'CREDIT', available: '150', held: '30', total: '180' };

export const Balance = Type.Object(
  { currency: Type.String(), available: AmountOut, held: AmountOut, total: { ...AmountOut, description: 'available + held' } },
  { additionalProperties: false },
);

export const BalanceSnapshot = Type.Object(
  { agent_id: Type.String(), balances: Type.Array(Balance, { description: 'One row per currency the wallet has used' }), as_of: Timestamp },
  { additionalProperties: false, description: 'Balance snapshot', examples: [{ agent_id: AGENT, balances: [balanceExample], as_of: T }] },
);
export type BalanceSnapshotJson = Static<typeof BalanceSnapshot>;

export const FaucetGrant = Type.Object(
  {
    faucet_grant_id: Type.String(),
    agent_id: Type.String(),
    amount: AmountOut,
    currency: Type.String(),
    category: Type.String(),
    journal_entry_id: Type.String(),
    granted_today: { ...AmountOut, description: 'Granted in this category today (UTC), this grant included' },
    remaining_today: AmountOut,
    resets_at: { ...Timestamp, description: 'Next UTC midnight, when the cap resets' },
    created_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'A sandbox faucet grant',
    examples: [
      {
        faucet_grant_id: 'fgr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        agent_id: AGENT,
        amount: '50',
        currency: 'CREDIT',
        category: 'testing',
        journal_entry_id: JRN,
        granted_today: '50',
        remaining_today: '150',
        resets_at: '2026-11-22T00:00:00.000Z',
        created_at: T,
      },
    ],
  },
);
export type FaucetGrantJson = Static<typeof FaucetGrant>;

export const Transfer = Type.Object(
  {
    transfer_id: Type.String(),
    from_agent_id: Type.String(),
    to_agent_id: Type.String(),
    amount: AmountOut,
    currency: Type.String(),
    memo: Nullable(Type.String()),
    journal_entry_id: Type.String(),
    created_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'A completed transfer between two wallets',
    examples: [
      {
        transfer_id: 'trf_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        from_agent_id: AGENT,
        to_agent_id: OTHER_AGENT,
        amount: '12.5',
        currency: 'CREDIT',
        memo: 'invoice 42',
        journal_entry_id: JRN,
        created_at: T,
      },
    ],
  },
);
export type TransferJson = Static<typeof Transfer>;

export const Hold = Type.Object(
  {
    hold_id: Type.String(),
    agent_id: Type.String(),
    amount: AmountOut,
    currency: Type.String(),
    status: StringEnum(HOLD_STATUSES),
    expires_at: Nullable(Timestamp),
    reference: Nullable(Type.String()),
    consumed_amount: Nullable(AmountOut, { description: 'Set once consumed: how much went to `consumed_to_agent_id`' }),
    released_amount: Nullable(AmountOut, { description: 'Set once resolved: how much went back to available' }),
    consumed_to_agent_id: Nullable(Type.String()),
    journal_entry_ids: Type.Array(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'Funds moved from available to held until released, consumed or expired',
    examples: [
      {
        hold_id: 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        agent_id: AGENT,
        amount: '30',
        currency: 'CREDIT',
        status: 'active',
        expires_at: T_LATER,
        reference: 'ctr_0192f4c6',
        consumed_amount: null,
        released_amount: null,
        consumed_to_agent_id: null,
        journal_entry_ids: [JRN],
        created_at: T,
        updated_at: T,
      },
    ],
  },
);
export type HoldJson = Static<typeof Hold>;
