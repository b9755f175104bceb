import { errors, formatAmount } from '@exchange/platform';
import type { Receipt, UnsignedReceipt } from '../domain/receipt';
import { walletErrors } from '../domain/wallet.errors';

/**
 * The rules of an erroneous-clear correction, decided from the stored receipts: only a
 * settlement receipt of this payer, only once, and the fees account must be able to pay its
 * share back, as must a merchant payee's settlement account (`merchantBalance`; an agent payee's
 * share is checked by the store with the other agent balances). A commerce settlement the
 * merchant already paid back in part (purchase refunds, `purchaseRefunded`) is reversed for the
 * rest only: the correction's amount is the settlement's less those refunds.
 * Returns the unsigned correction receipt.
 */
export function planCorrection(input: {
  payer: string;
  original: Receipt | undefined;
  existingCorrection: Receipt | undefined;
  feesBalance: bigint;
  /** The merchant payee's settlement balance; null when the payee is an agent. */
  merchantBalance: bigint | null;
  /** Paid back to the payer by purchase refunds of this settlement (0 for an agent payee). */
  purchaseRefunded: bigint;
  receiptId: string;
  journalEntryId: string;
  reason: string;
  now: Date;
  signerPublicKey: string;
}): UnsignedReceipt {
  const { original } = input;
  // Another payer's receipt is reported as missing: the payer is the scope of the request.
  if (!original || original.payer !== input.payer) throw errors.notFound('receipt', input.receiptId);
  if (original.kind !== 'settlement') {
    throw errors.failedPrecondition('invalid_state', `receipt is a ${original.kind} receipt, only a settlement can be corrected`, {
      current: original.kind,
      wanted: 'corrected',
    });
  }
  if (input.existingCorrection) {
    throw errors.failedPrecondition('invalid_state', `receipt ${original.receiptId} is already corrected`, {
      current: 'corrected',
      wanted: 'corrected',
      correction_receipt_id: input.existingCorrection.receiptId,
    });
  }
  // What the payer has not had back yet: never below the fee (refunds only come out of the
  // merchant's share), so 0 only when the merchant paid everything back and there was no fee.
  const amount = original.amount - input.purchaseRefunded;
  if (amount <= 0n) {
    throw errors.failedPrecondition('invalid_state', `receipt ${original.receiptId} was refunded in full: nothing is left to correct`, {
      current: 'purchase_refunded',
      wanted: 'corrected',
    });
  }
  if (input.feesBalance < original.fee) {
    throw walletErrors.insufficientFunds(original.currency, formatAmount(input.feesBalance), formatAmount(original.fee));
  }
  const payeeShare = amount - original.fee;
  if (input.merchantBalance !== null && input.merchantBalance < payeeShare) {
    throw walletErrors.insufficientFunds(original.currency, formatAmount(input.merchantBalance), formatAmount(payeeShare));
  }
  return {
    receiptId: input.receiptId,
    kind: 'correction',
    contractId: original.contractId,
    holdId: original.holdId,
    payer: original.payer,
    payee: original.payee,
    amount,
    fee: original.fee,
    // Nothing goes back to the payer beyond `amount`: the settlement's refunded part already did.
    refundedAmount: 0n,
    currency: original.currency,
    journalEntryIds: [input.journalEntryId],
    settledAt: input.now,
    signerPublicKey: input.signerPublicKey,
    correctsReceiptId: original.receiptId,
    reason: input.reason,
  };
}
