import { walletV1Wire, type walletV1 } from '@exchange/proto';

/**
 * A wallet-ledger receipt's JSON form, field for field the object wallet-ledger signed plus
 * `signature` (its README "Receipts": snake_case, amounts as decimal strings, settled_at ISO), so
 * anyone verifies it offline. Only correction and purchase refund receipts carry their extra
 * fields (null when absent, as signed); a settlement's JSON is exactly its signed payload.
 */
export function walletReceiptJson(r: walletV1.Receipt): Record<string, unknown> {
  const kind = walletV1Wire.receiptKind.toWire(r.kind) ?? 'settlement';
  return {
    receipt_id: r.receiptId,
    kind,
    contract_id: r.contractId,
    hold_id: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: r.amount,
    fee: r.fee,
    refunded_amount: r.refundedAmount,
    currency: r.currency,
    journal_entry_ids: [...r.journalEntryIds],
    settled_at: (r.settledAt ?? new Date(0)).toISOString(),
    signer_public_key: r.signerPublicKey,
    ...(kind === 'correction' ? { corrects_receipt_id: r.correctsReceiptId ?? null, reason: r.reason ?? null } : {}),
    ...(kind === 'purchase_refund' ? { refunds_receipt_id: r.refundsReceiptId ?? null, reason: r.reason ?? null } : {}),
    signature: r.signature,
  };
}
