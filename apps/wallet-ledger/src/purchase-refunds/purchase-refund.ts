import { errors, formatAmount } from '@exchange/platform';
import { merchantDomainOf } from '../domain/merchant';
import type { Receipt, UnsignedReceipt } from '../domain/receipt';
import { utcDay } from '../domain/utc-day';
import { walletErrors } from '../domain/wallet.errors';
import { COMMERCE_CONTROLLER } from '../holds/hold-control';
import { parseSettlementController } from '../settlement/settlement-payee';

// Commerce post-purchase refunds (README.md "Purchase refunds"): the merchant's settlement
// account pays part or all of a purchase back to the buyer, never more in all than the
// settlement paid the merchant.

/**
 * RefundPurchase is commerce's path only: a controller that is not a known name is
 * validation_failed (as for Settle); "market" or none is PERMISSION_DENIED forbidden.
 */
export function requireCommerceController(raw: string | undefined): void {
  const controller = parseSettlementController(raw);
  if (controller !== COMMERCE_CONTROLLER) {
    throw errors.permissionDenied('forbidden', 'only commerce refunds purchases: controller must be "commerce"', {
      controller,
      wanted: COMMERCE_CONTROLLER,
    });
  }
}

/**
 * The counter row that serializes the refunds (and the correction) of one settlement receipt:
 * its value is what the purchase refunds of that receipt have paid back so far. The day is the
 * settlement's, so every caller names the same row.
 */
export function purchaseRefundCounter(settlement: Pick<Receipt, 'receiptId' | 'settledAt'>): { key: string; day: string } {
  return { key: `purchase_refunded:${settlement.receiptId}`, day: utcDay(settlement.settledAt) };
}

/** What a settlement paid its payee: its amount less the fee (the fee went to the fees account). */
export const paidToPayee = (settlement: Pick<Receipt, 'amount' | 'fee'>): bigint => settlement.amount - settlement.fee;

/**
 * The rules of a purchase refund, decided under the receipt's counter lock from the stored
 * state. Returns the unsigned purchase_refund receipt (payer = the merchant account that pays,
 * payee = the buyer) and the receipt's refunded total with this refund.
 */
export function planPurchaseRefund(input: {
  /** The buyer: the request's agent_id, which must be the settlement's payer. */
  buyer: string;
  /** The settlement receipt id the request names, and that receipt as stored. */
  settlementReceiptId: string;
  settlement: Receipt | undefined;
  /** The controller of the settlement's hold (undefined when the receipt is unknown). */
  holdController: string | undefined;
  correction: Receipt | undefined;
  /** Paid back by earlier purchase refunds of the settlement (the counter's value). */
  refunded: bigint;
  /** The merchant's settlement balance in the settlement's currency. */
  merchantBalance: bigint;
  amount: bigint;
  reason: string;
  reference: string | null;
  /** The new purchase_refund receipt's id. */
  receiptId: string;
  journalEntryId: string;
  now: Date;
  signerPublicKey: string;
}): { receipt: UnsignedReceipt; refundedTotal: bigint; paid: bigint } {
  const { settlement, buyer, amount } = input;
  // Another payer's receipt is reported as missing: the buyer is the scope of the request.
  if (!settlement || settlement.payer !== buyer) throw errors.notFound('receipt', input.settlementReceiptId);
  if (settlement.kind !== 'settlement') {
    throw errors.failedPrecondition('invalid_state', `receipt is a ${settlement.kind} receipt, only a settlement can be refunded`, {
      current: settlement.kind,
      wanted: 'purchase_refunded',
    });
  }
  if (merchantDomainOf(settlement.payee) === null || input.holdController !== COMMERCE_CONTROLLER) {
    throw errors.failedPrecondition('invalid_state', `receipt ${settlement.receiptId} is not the settlement of a commerce purchase to a merchant`, {
      current: 'not_a_purchase',
      wanted: 'purchase_refunded',
    });
  }
  if (input.correction) {
    throw errors.failedPrecondition('invalid_state', `receipt ${settlement.receiptId} was corrected: nothing is left to refund`, {
      current: 'corrected',
      wanted: 'purchase_refunded',
      correction_receipt_id: input.correction.receiptId,
    });
  }
  const paid = paidToPayee(settlement);
  const refundedTotal = input.refunded + amount;
  if (refundedTotal > paid) {
    throw errors.failedPrecondition(
      'refund_exceeds_paid',
      `refunding ${formatAmount(amount)} would bring the refunds of receipt ${settlement.receiptId} to ${formatAmount(refundedTotal)}, more than the ${formatAmount(paid)} it paid`,
      { paid: formatAmount(paid), refunded: formatAmount(input.refunded), requested: formatAmount(amount) },
    );
  }
  if (input.merchantBalance < amount) {
    throw walletErrors.insufficientFunds(settlement.currency, formatAmount(input.merchantBalance), formatAmount(amount));
  }
  return {
    refundedTotal,
    paid,
    receipt: {
      receiptId: input.receiptId,
      kind: 'purchase_refund',
      contractId: settlement.contractId,
      holdId: settlement.holdId,
      payer: settlement.payee,
      payee: buyer,
      amount,
      fee: 0n,
      refundedAmount: 0n,
      currency: settlement.currency,
      journalEntryIds: [input.journalEntryId],
      settledAt: input.now,
      signerPublicKey: input.signerPublicKey,
      refundsReceiptId: settlement.receiptId,
      reason: input.reason,
      reference: input.reference,
    },
  };
}
