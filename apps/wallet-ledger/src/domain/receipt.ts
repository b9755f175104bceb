import { signCanonical, verifyCanonical } from '@exchange/crypto';
import { formatAmount } from '@exchange/platform';

export type ReceiptKind = 'settlement' | 'refund' | 'correction' | 'purchase_refund';

export interface Receipt {
  receiptId: string;
  kind: ReceiptKind;
  contractId: string;
  holdId: string;
  payer: string;
  payee: string;
  /** Paid out of the hold, fee included (settlement), or returned to the payer (refund). */
  amount: bigint;
  fee: bigint;
  /** What went back to the payer. */
  refundedAmount: bigint;
  currency: string;
  journalEntryIds: string[];
  settledAt: Date;
  signerPublicKey: string;
  signature: string;
  /** Correction receipts only: the settlement receipt reversed, and the operator's reason. */
  correctsReceiptId?: string | null;
  /** Correction and purchase refund receipts: why. */
  reason?: string | null;
  /** Purchase refund receipts only: the commerce settlement receipt paid back. */
  refundsReceiptId?: string | null;
  /** Purchase refund receipts: the caller's reference (commerce's case id). Stored, never signed nor returned. */
  reference?: string | null;
}

export type UnsignedReceipt = Omit<Receipt, 'signature'>;

/**
 * The receipt's JSON form without `signature` — exactly what is signed: canonical JSON (legacy v1,
 * @exchange/crypto canonicalize) of these snake_case fields, amounts as decimal strings,
 * settled_at as Date.toISOString().
 */
export function receiptPayload(r: UnsignedReceipt): Record<string, unknown> {
  return {
    receipt_id: r.receiptId,
    kind: r.kind,
    contract_id: r.contractId,
    hold_id: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: formatAmount(r.amount),
    fee: formatAmount(r.fee),
    refunded_amount: formatAmount(r.refundedAmount),
    currency: r.currency,
    journal_entry_ids: [...r.journalEntryIds],
    settled_at: r.settledAt.toISOString(),
    signer_public_key: r.signerPublicKey,
    // Only correction and purchase refund receipts carry these, so settlement and refund
    // payloads (and their signatures) are exactly what they were before those kinds existed.
    ...(r.kind === 'correction' ? { corrects_receipt_id: r.correctsReceiptId ?? null, reason: r.reason ?? null } : {}),
    ...(r.kind === 'purchase_refund' ? { refunds_receipt_id: r.refundsReceiptId ?? null, reason: r.reason ?? null } : {}),
  };
}

/** The receipt's JSON form (what GET /v1/receipts/{id} returns): the payload plus `signature`. */
export function receiptJson(r: Receipt): Record<string, unknown> {
  return { ...receiptPayload(r), signature: r.signature };
}

export function signReceipt(unsigned: UnsignedReceipt, privateKey: Uint8Array): Receipt {
  return { ...unsigned, signature: signCanonical(receiptPayload(unsigned), privateKey) };
}

/** Offline check anyone can run: the signature over the payload verifies with signer_public_key. */
export function verifyReceiptJson(json: Record<string, unknown>): boolean {
  const { signature, ...payload } = json;
  if (typeof signature !== 'string' || typeof payload['signer_public_key'] !== 'string') return false;
  return verifyCanonical(payload, signature, payload['signer_public_key']);
}
