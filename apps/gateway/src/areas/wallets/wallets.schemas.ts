import { walletV1Wire } from '@exchange/proto';
import { AgentId, Cursor, Limit, StringEnum } from '../../schemas/common';
import { ISO_4217_PUBLISHED, isSupportedCurrency } from '@exchange/platform';
import { type Static, Type } from 'typebox';
import { Format } from 'typebox/format';

// Formats, params and queries of the Wallets area, shared with receipts, the ledger check and the
// market (spec §4 Wallets, DESIGN §3 Money/Idempotency, §4 Wallet-ledger); resources in
// funds.schemas.ts and payments.schemas.ts. Amount, currency and key formats are checked by the
// wallet-ledger service so that their failures carry their own codes (`invalid_amount`,
// `invalid_idempotency_key`); the schemas document them and refuse unknown fields and wrong
// types. Currencies are the exception: checked here against the shared list (format `currency`,
// registered below) and again by the services, 400 `unsupported_currency` naming the pointer.

// The enums' REST names, in proto order, from the tables generated from wallet.proto.
export const HOLD_STATUSES = walletV1Wire.holdStatus.names;
export const DEPOSIT_STATUSES = walletV1Wire.depositStatus.names;
export const DEPOSIT_METHODS = walletV1Wire.depositMethod.names;
export const PAYOUT_DESTINATION_TYPES = walletV1Wire.payoutDestinationType.names;
export const WITHDRAWAL_STATUSES = walletV1Wire.withdrawalStatus.names;
export const RECEIPT_KINDS = walletV1Wire.receiptKind.names;

export type HoldStatusName = (typeof HOLD_STATUSES)[number];
export type DepositStatusName = (typeof DEPOSIT_STATUSES)[number];
export type DepositMethodName = (typeof DEPOSIT_METHODS)[number];
export type PayoutDestinationTypeName = (typeof PAYOUT_DESTINATION_TYPES)[number];
export type WithdrawalStatusName = (typeof WITHDRAWAL_STATUSES)[number];
export type ReceiptKindName = (typeof RECEIPT_KINDS)[number];

export const T = '2026-11-21T18:00:00.000Z';
export const T_LATER = '2026-11-21T18:05:00.000Z';
export const AGENT = 'acme:agent:buyer-1';
export const OTHER_AGENT = 'acme:agent:seller-1';
export const JRN = 'jrn_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

export const Amount = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'Decimal string with at most 6 fraction digits, greater than 0 (e.g. "12.5"); else 400 `invalid_amount`',
  examples: ['12.5'],
});

export const AmountOut = Type.String({ description: 'Decimal string (at most 6 fraction digits)', examples: ['12.5'] });

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

/** Actions whose only input is the idempotency key; the body may be omitted when the header carries it. */
export const KeyOnlyBody = Type.Object(
  { idempotency_key: Type.Optional(IdempotencyKey) },
  { additionalProperties: false, examples: [{ idempotency_key: 'release-001' }] },
);
export type KeyOnlyBodyJson = Static<typeof KeyOnlyBody>;
