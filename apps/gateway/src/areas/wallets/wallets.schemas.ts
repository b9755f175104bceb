import { ISO_4217_PUBLISHED, isSupportedCurrency } from '@exchange/platform';
import { Type, type Static } from 'typebox';
import { Format } from 'typebox/format';
import { AgentId, Cursor, Limit, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of the Wallets area, receipts and the ledger check (spec §4 Wallets, DESIGN §3
// Money/Idempotency, §4 Wallet-ledger). Amount, currency and key formats are checked by the
// wallet-ledger service so that their failures carry their own codes (`invalid_amount`,
// `invalid_idempotency_key`); the schemas document them and refuse unknown fields and wrong
// types. Currencies are the exception: checked here against the shared list (format `currency`,
// registered below) and again by the services, 400 `unsupported_currency` naming the pointer.

export const HOLD_STATUSES = ['active', 'released', 'consumed', 'expired'] as const;
export const DEPOSIT_STATUSES = ['pending', 'confirmed', 'expired'] as const;
export const DEPOSIT_METHODS = ['sandbox', 'bank', 'crypto'] as const;
export const PAYOUT_DESTINATION_TYPES = ['bank_account', 'crypto_address', 'sandbox'] as const;
export const WITHDRAWAL_STATUSES = ['requested', 'processing', 'completed', 'failed', 'cancelled'] as const;
export const RECEIPT_KINDS = ['settlement', 'refund', 'correction'] as const;

export type HoldStatusName = (typeof HOLD_STATUSES)[number];
export type DepositStatusName = (typeof DEPOSIT_STATUSES)[number];
export type DepositMethodName = (typeof DEPOSIT_METHODS)[number];
export type PayoutDestinationTypeName = (typeof PAYOUT_DESTINATION_TYPES)[number];
export type WithdrawalStatusName = (typeof WITHDRAWAL_STATUSES)[number];
export type ReceiptKindName = (typeof RECEIPT_KINDS)[number];

const T = '2026-11-21T18:00:00.000Z';
const T_LATER = '2026-11-21T18:05:00.000Z';
const AGENT = 'acme:agent:buyer-1';
const OTHER_AGENT = 'acme:agent:seller-1';
const JRN = 'jrn_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

export const Amount = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Decimal string with at most 6 fraction digits, greater than 0 (e.g. "12.5"); else 400 `invalid_amount`',
  examples: ['12.5'],
});

const AmountOut = Type.String({ description: 'Decimal string (at most 6 fraction digits)', examples: ['12.5'] });

/** JSON Schema format of every request currency: `CREDIT` or ISO 4217 (@exchange/platform's list). */
export const CURRENCY_FORMAT = 'currency';
Format.Set(CURRENCY_FORMAT, isSupportedCurrency);

export const Currency = Type.String({
  format: CURRENCY_FORMAT,
  description:
    `\`CREDIT\` (sandbox credits) or an ISO 4217 alphabetic code such as \`USD\` (ISO 4217 list one of ${ISO_4217_PUBLISHED}; ` +
    'XXX and XTS are not money). Anything else, e.g. `QQQ` or `usd`, → 400 `unsupported_currency` with `errors[]` naming the field',
  examples: ['CREDIT'],
});

export const IdempotencyKey = Type.String({
  description:
    '1-255 printable ASCII characters; the `Idempotency-Key` header is the same thing (both and different → 400 ' +
    '`idempotency_key_mismatch`). Reuse it when retrying: the same key and body replay the first outcome ' +
    '(header `Idempotent-Replayed: true`); the same key with another body is 422 `idempotency_key_reused`.',
  examples: ['faucet-2026-11-21-001'],
});

// ─── params and queries ─────────────────────────────────────────────────────────────────────

export const WalletParams = Type.Object({ agent_id: AgentId }, { additionalProperties: false });

const ResourceId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });

export const HoldParams = Type.Object(
  { agent_id: AgentId, hold_id: ResourceId('Hold id (`hld_…`)', 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e') },
  { additionalProperties: false },
);
export const DepositParams = Type.Object(
  { agent_id: AgentId, deposit_id: ResourceId('Deposit id (`dep_…`)', 'dep_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e') },
  { additionalProperties: false },
);
export const WithdrawalParams = Type.Object(
  { agent_id: AgentId, withdrawal_id: ResourceId('Withdrawal id (`wdr_…`)', 'wdr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e') },
  { additionalProperties: false },
);
export const ReceiptParams = Type.Object(
  { receipt_id: ResourceId('Receipt id (`rcpt_…`)', 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e') },
  { additionalProperties: false },
);

export const ListDepositsQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), status: Type.Optional(StringEnum(DEPOSIT_STATUSES)) },
  { additionalProperties: false },
);
export const WalletPageQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);

// ─── request bodies ─────────────────────────────────────────────────────────────────────────

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
const Reference = Type.String({ maxLength: 255, description: 'Caller reference (e.g. a contract id)', examples: ['ctr_0192f4c6'] });

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

/** Actions whose only input is the idempotency key; the body may be omitted when the header carries it. */
export const KeyOnlyBody = Type.Object(
  { idempotency_key: Type.Optional(IdempotencyKey) },
  { additionalProperties: false, examples: [{ idempotency_key: 'release-001' }] },
);
export type KeyOnlyBodyJson = Static<typeof KeyOnlyBody>;

export const ConsumeHoldBody = Type.Object(
  {
    to_agent_id: AgentId,
    amount: Type.Optional({ ...Amount, description: 'At most the held amount (default: all of it); the rest is released' }),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false, examples: [{ to_agent_id: OTHER_AGENT, amount: '20', idempotency_key: 'consume-001' }] },
);
export type ConsumeHoldBodyJson = Static<typeof ConsumeHoldBody>;

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

export const Receipt = Type.Object(
  {
    receipt_id: Type.String(),
    kind: StringEnum(RECEIPT_KINDS),
    contract_id: Type.String(),
    hold_id: Type.String(),
    payer: Type.String(),
    payee: Type.String(),
    amount: { ...AmountOut, description: 'Paid out of the hold, fee included (settlement) or returned to the payer (refund)' },
    fee: AmountOut,
    refunded_amount: { ...AmountOut, description: 'Returned to the payer ("0" when none)' },
    currency: Type.String(),
    journal_entry_ids: Type.Array(Type.String()),
    settled_at: Timestamp,
    signer_public_key: Type.String({ description: 'Base64 ed25519 public key of the exchange (as published by /health)' }),
    signature: Type.String({
      description: 'Base64 ed25519 signature over canonical JSON (legacy v1) of this object without `signature`',
    }),
    corrects_receipt_id: Type.Optional(
      Type.String({ description: 'Correction receipts only (kind `correction`): the settlement receipt this one reverses' }),
    ),
    reason: Type.Optional(Type.String({ description: 'Correction receipts only: the operator’s reason for the erroneous clear' })),
  },
  {
    additionalProperties: false,
    description: 'A settlement, refund or correction receipt signed by the exchange key; verify it offline (see /skill.md)',
    examples: [
      {
        receipt_id: 'rcpt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        kind: 'settlement',
        contract_id: 'ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        hold_id: 'hld_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
        payer: AGENT,
        payee: OTHER_AGENT,
        amount: '25',
        fee: '0.5',
        refunded_amount: '5',
        currency: 'CREDIT',
        journal_entry_ids: [JRN],
        settled_at: T,
        signer_public_key: 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=',
        signature: 'rMKmcsGT9w8Sk6iXIPr62zWLfI6m5KovhMFS1hHH6dSizo54z3Z56FZE2aVKr2xksuM5IzTN3j2w2aBwqevMAw==',
      },
    ],
  },
);
export type ReceiptJson = Static<typeof Receipt>;

export const LedgerDiscrepancy = Type.Object(
  { kind: Type.String(), subject: Type.String(), expected: Type.String(), actual: Type.String(), detail: Type.String() },
  { additionalProperties: false },
);

export const LedgerCheckReport = Type.Object(
  {
    ok: Type.Boolean(),
    accounts_checked: Type.Integer(),
    entries_checked: Type.Integer(),
    postings_checked: Type.Integer(),
    global_sums: Type.Record(Type.String(), Type.String(), { description: 'Per currency, the sum of every account (must be "0")' }),
    discrepancies: Type.Array(LedgerDiscrepancy),
    checked_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'Reconciliation of every balance against the journal',
    examples: [
      {
        ok: true,
        accounts_checked: 12,
        entries_checked: 40,
        postings_checked: 86,
        global_sums: { CREDIT: '0' },
        discrepancies: [],
        checked_at: T,
      },
    ],
  },
);
export type LedgerCheckReportJson = Static<typeof LedgerCheckReport>;
