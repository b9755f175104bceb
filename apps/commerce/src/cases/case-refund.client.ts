import type { WalletClient } from '../clients/wallet.client';
import { walletReceiptJson } from '../clients/wallet-receipt';

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
  return { receiptId: res.receipt.receiptId, receipt: walletReceiptJson(res.receipt) };
}
