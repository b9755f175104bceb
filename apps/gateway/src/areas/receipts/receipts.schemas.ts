import { AGENT, AmountOut, JRN, OTHER_AGENT, RECEIPT_KINDS, T } from '../wallets/wallets.schemas';
import { StringEnum, Timestamp } from '../../schemas/common';
import { type Static, Type } from 'typebox';

// The receipt, exactly in the JSON form the exchange signs (spec §4 Wallets, DESIGN §4 Wallet-ledger).

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
    refunds_receipt_id: Type.Optional(
      Type.String({
        description:
          'Purchase refund receipts only (kind `purchase_refund`): the commerce settlement receipt paid back, in part or whole; ' +
          'payer is the merchant (`merchant:<domain>`), payee the buyer',
      }),
    ),
    reason: Type.Optional(
      Type.String({ description: 'Correction receipts: the operator’s reason for the erroneous clear; purchase refund receipts: why the purchase was refunded' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'A settlement, refund, correction or purchase refund receipt signed by the exchange key; verify it offline (see /skill.md)',
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
