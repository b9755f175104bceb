import { formatAmount, newId, parsePositiveAmount } from '@exchange/platform';
import { accountId, merchantAccount } from '../domain/accounts';
import { purchaseRefundPostings } from '../domain/postings';
import { signReceipt } from '../domain/receipt';
import type { PurchaseRefundResult, RefundPurchaseCommand } from '../domain/wallet.commands';
import { walletErrors } from '../domain/wallet.errors';
import type { BalancesRepo } from '../balances/balances.repo';
import type { Caller } from '../events/wallet.events';
import type { HoldsRepo } from '../holds/holds.repo';
import type { ReceiptsRepo } from '../receipts/receipts.repo';
import { decide, execute, type ResponseCodec } from '../service/execute';
import type { ExchangeSigner } from '../settlement/settlement.service';
import { claimFor, optionalText, requireText, type MutationDeps } from '../service/use-case';
import { planPurchaseRefund, purchaseRefundCounter, requireCommerceController } from './purchase-refund';
import { purchaseRefundEvents } from './purchase-refunds.events';

export interface PurchaseRefundsDeps extends MutationDeps {
  holds: Pick<HoldsRepo, 'hold'>;
  receipts: Pick<ReceiptsRepo, 'receipt' | 'correctionOf'>;
  /** The merchant settlement account's balance. */
  balances: Pick<BalancesRepo, 'systemBalance'>;
  codecs: { refundPurchase: ResponseCodec<PurchaseRefundResult> };
}

/**
 * Commerce's post-purchase refunds: the merchant's settlement account pays part or all of a
 * commerce settlement back to the buyer, one journal entry and one signed purchase_refund receipt
 * each. The refunds of a receipt are decided under its counter row's lock (purchaseRefundCounter),
 * so concurrent ones queue and never add up to more than the settlement paid the merchant.
 * Money going back to the buyer obeys no kill switch (read-only mode still applies) and reaches a
 * frozen buyer too, as Refund does.
 */
export class PurchaseRefundsService {
  constructor(
    private readonly ctx: PurchaseRefundsDeps,
    private readonly signer: ExchangeSigner,
  ) {}

  async refundPurchase(req: RefundPurchaseCommand, caller: Caller): Promise<PurchaseRefundResult> {
    const buyer = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(buyer, req, 'refund_purchase');
    requireCommerceController(req.controller);
    const receiptId = requireText(req.receiptId, 'receipt_id');
    const amount = parsePositiveAmount(req.amount);
    const reason = requireText(req.reason, 'reason', 500);
    const reference = optionalText(req.reference === '' ? undefined : req.reference, 'reference');
    await this.ctx.agents.get(buyer);
    // Read before the counter lock, never under it: a plan waiting for a pool connection while
    // its transaction holds one would starve the pool under concurrent refunds. Receipts and a
    // consumed hold never change; a correction committed meanwhile has moved the counter to the
    // paid amount (settlement.service.ts), and the merchant's balance is re-checked by its CHECK.
    const settlement = await this.ctx.receipts.receipt(receiptId);
    const [hold, correction, merchantBalance] = await Promise.all([
      settlement ? this.ctx.holds.hold(settlement.holdId) : Promise.resolve(undefined),
      this.ctx.receipts.correctionOf(receiptId),
      settlement ? this.ctx.balances.systemBalance(accountId(merchantAccount(settlement.payee, settlement.currency))) : Promise.resolve(0n),
    ]);
    // An unknown receipt needs no lock (its refusal is still stored with the key).
    const counter = settlement ? purchaseRefundCounter(settlement) : undefined;
    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.refundPurchase,
      counter,
      plan: async (refunded) => {
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () =>
          planPurchaseRefund({
            buyer,
            settlementReceiptId: receiptId,
            settlement,
            holdController: hold?.controller,
            correction,
            refunded,
            merchantBalance,
            amount,
            reason,
            reference,
            receiptId: newId('rcpt'),
            journalEntryId: entryId,
            now,
            signerPublicKey: this.signer.publicKey,
          }),
        );
        if ('refused' in decided) return decided;
        if (!hold) throw new Error('the hold of a settlement receipt is missing');
        const receipt = signReceipt(decided.value.receipt, this.signer.privateKey);
        const { currency, payer: merchant } = receipt;
        return {
          result: { receipt, refundedTotal: decided.value.refundedTotal, settledAmount: decided.value.paid, idempotentReplayed: false },
          onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount)),
          plan: {
            now,
            // Under the lock already: `expect` only restates what the plan was decided on.
            counter: counter && { ...counter, expect: refunded, delta: amount },
            entry: { entryId, kind: 'purchase_refund', currency, postings: purchaseRefundPostings({ merchant, buyer, currency, amount }) },
            writes: [{ table: 'receipts', value: receipt }],
            events: [purchaseRefundEvents.receiptIssued(receipt, hold, caller)],
          },
        };
      },
    });
  }
}
