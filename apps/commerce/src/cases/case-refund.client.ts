import { walletV1Wire, type walletV1 } from '@exchange/proto';
import type { WalletClient } from '../clients/wallet.client';

// The one wallet-ledger call of the cases area: RefundPurchase, which pays an approved case's
// amount from the merchant's settlement account back to the buyer. Errors are thrown as the gRPC
// client raised them; the caller tells a transient failure from a refusal.

export interface RefundCall {
  buyerAgentId: string;
  settlementReceiptId: string;
  amount: string;
  reason: string;
  idempotencyKey: string;
  caseId: string;
}

export interface RefundOutcome {
  receiptId: string;
  /** The exchange-signed receipt as GET /v1/receipts/{id} answers it (snake_case). */
  receipt: Record<string, unknown>;
}

export async function refundPurchase(wallet: WalletClient, call: RefundCall): Promise<RefundOutcome> {
  const res = await wallet.refundPurchase({
    agentId: call.buyerAgentId,
    receiptId: call.settlementReceiptId,
    amount: call.amount,
    reason: call.reason,
    idempotencyKey: call.idempotencyKey,
    controller: 'commerce',
    reference: call.caseId,
  });
  if (!res.receipt) throw new Error('wallet-ledger answered RefundPurchase without a receipt');
  return { receiptId: res.receipt.receiptId, receipt: refundReceiptJson(res.receipt) };
}

/**
 * The refund receipt's JSON form, field for field what wallet-ledger signs (its README
 * "Receipts"), so anyone verifies it offline with the signature and signer_public_key.
 */
export function refundReceiptJson(r: walletV1.Receipt): Record<string, unknown> {
  const kind = walletV1Wire.receiptKind.toWire(r.kind);
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
    // Purchase refund receipts sign these two as well (null when absent).
    ...(kind === 'purchase_refund' ? { refunds_receipt_id: r.refundsReceiptId ?? null, reason: r.reason ?? null } : {}),
    signature: r.signature,
  };
}
