import { errors, formatAmount, newId, parseAmount, parsePositiveAmount } from '@exchange/platform';
import { accountId, systemAccount } from '../domain/accounts';
import { merchantDomainOf, payeeAccount } from '../domain/merchant';
import { consumePostings, correctionPostings, releasePostings } from '../domain/postings';
import type { MutationPlan } from '../domain/ledger.ports';
import { signReceipt, type Receipt } from '../domain/receipt';
import type { CorrectionResult, CorrectSettlementCommand, RefundCommand, SettleCommand, SettlementResult } from '../domain/wallet.commands';
import type { Hold } from '../domain/wallet.model';
import { walletErrors } from '../domain/wallet.errors';
import type { BalancesRepo } from '../balances/balances.repo';
import type { Caller } from '../events/wallet.events';
import { consumedHold, releasedHold } from '../holds/holds';
import type { HoldsRepo } from '../holds/holds.repo';
import type { HoldsService } from '../holds/holds.service';
import type { ReceiptsRepo } from '../receipts/receipts.repo';
import { decide, execute, type Planned, type ResponseCodec } from '../service/execute';
import { activeAgent, claimFor, requireText, type MutationDeps } from '../service/use-case';
import { purchaseRefundCounter } from '../purchase-refunds/purchase-refund';
import { planCorrection } from './correction';
import { parseSettlementController, settlementPayee } from './settlement-payee';
import { settlementEvents } from './settlement.events';

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the hold of a settlement receipt is missing');
  return value;
}

export interface SettlementDeps extends MutationDeps {
  holds: Pick<HoldsRepo, 'hold'>;
  receipts: Pick<ReceiptsRepo, 'receipt' | 'correctionOf'>;
  /** The fees account's balance (a correction pays the fee back). */
  balances: Pick<BalancesRepo, 'systemBalance'>;
  codecs: {
    settle: ResponseCodec<SettlementResult>;
    refund: ResponseCodec<SettlementResult>;
    correctSettlement: ResponseCodec<CorrectionResult>;
  };
}

export interface ExchangeSigner {
  privateKey: Uint8Array;
  /** Base64 public key, published in every receipt. */
  publicKey: string;
}

/**
 * Settlement and refund of a buyer's hold, each with a receipt signed by the exchange key. They
 * are the path of the service the request names (`controller`: the market's escrow, or commerce's
 * purchases, which Settle pays to a merchant's settlement account) and move only its holds. Settle obeys
 * the `settlements` kill switch (also forced on while the market is halted); Refund does not:
 * money going back to the payer is always allowed (read-only mode still applies) — a frozen
 * payer included, as the contract's lifecycle requires (README.md "Frozen agents").
 */
export class SettlementService {
  constructor(
    private readonly ctx: SettlementDeps,
    private readonly holds: Pick<HoldsService, 'controlledHold'>,
    private readonly signer: ExchangeSigner,
  ) {}

  async settle(req: SettleCommand, caller: Caller): Promise<SettlementResult> {
    const payer = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(payer, req, 'settle');
    const contractId = requireText(req.contractId, 'contract_id');
    const controller = parseSettlementController(req.controller);
    const payee = settlementPayee({ controller, payer, payeeAgentId: req.payeeAgentId, payeeMerchantDomain: req.payeeMerchantDomain });
    const amount = req.amount === undefined ? null : parsePositiveAmount(req.amount);
    const fee = req.fee === undefined || req.fee === '' ? 0n : parseAmount(req.fee);
    if (fee < 0n) throw errors.invalidArgument('invalid_amount', 'fee must not be negative', { value: req.fee });
    // A payee agent must exist (money coming in: frozen is fine); a merchant is not an agent.
    await Promise.all([activeAgent(this.ctx, payer), payee.kind === 'agent' ? this.ctx.agents.get(payee.owner) : undefined]);

    return execute(this.ctx.writer, {
      idempotency,
      control: 'settlements',
      codec: this.ctx.codecs.settle,
      plan: async () => {
        const hold = await this.holds.controlledHold(payer, req.holdId, controller);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => {
          const after = consumedHold(hold, { amount, toAgentId: payee.owner }, entryId, now);
          const paid = after.consumedAmount ?? hold.amount;
          if (fee > paid) {
            throw errors.invalidArgument('invalid_amount', `fee ${formatAmount(fee)} exceeds the settled amount ${formatAmount(paid)}`, {
              value: formatAmount(fee),
            });
          }
          return { after, paid };
        });
        if ('refused' in decided) return decided;
        const { after, paid } = decided.value;
        return this.receiptStep({
          kind: 'settlement',
          contractId,
          hold,
          after,
          payee: payee.owner,
          amount: paid,
          fee,
          now,
          entry: {
            entryId,
            kind: 'settle',
            currency: hold.currency,
            postings: consumePostings({
              payer,
              // The same mapping a correction uses on the receipt's payee, so both move one account.
              payee: payeeAccount(payee.owner, hold.currency),
              currency: hold.currency,
              held: hold.amount,
              amount: paid,
              fee,
            }),
          },
          caller,
        });
      },
    });
  }

  async refund(req: RefundCommand, caller: Caller): Promise<SettlementResult> {
    const payer = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(payer, req, 'refund');
    const contractId = requireText(req.contractId, 'contract_id');
    const controller = parseSettlementController(req.controller);
    // Existence only: a refund gives the payer back its own escrow, frozen or not.
    await this.ctx.agents.get(payer);

    return execute(this.ctx.writer, {
      idempotency,
      codec: this.ctx.codecs.refund,
      plan: async () => {
        const hold = await this.holds.controlledHold(payer, req.holdId, controller);
        const now = this.ctx.clock();
        const entryId = newId('jrn');
        const decided = decide(now, () => releasedHold(hold, entryId, now));
        if ('refused' in decided) return decided;
        const after = decided.value;
        return this.receiptStep({
          kind: 'refund',
          contractId,
          hold,
          after,
          payee: payer,
          amount: hold.amount,
          fee: 0n,
          now,
          entry: { entryId, kind: 'refund', currency: hold.currency, postings: releasePostings(payer, hold.currency, hold.amount) },
          caller,
        });
      },
    });
  }

  /**
   * The one plan shape of Settle and Refund: the hold moves on (guarded: still active), a receipt
   * signed by the exchange key is written beside it, and receipt.issued is the only event.
   */
  private receiptStep(p: {
    kind: Receipt['kind'];
    contractId: string;
    hold: Hold;
    after: Hold;
    payee: string;
    amount: bigint;
    fee: bigint;
    now: Date;
    entry: NonNullable<MutationPlan['entry']>;
    caller: Caller;
  }): Planned<SettlementResult> {
    const receipt = signReceipt(
      {
        receiptId: newId('rcpt'),
        kind: p.kind,
        contractId: p.contractId,
        holdId: p.hold.holdId,
        payer: p.hold.agentId,
        payee: p.payee,
        amount: p.amount,
        fee: p.fee,
        refundedAmount: p.hold.amount - (p.kind === 'refund' ? 0n : p.amount),
        currency: p.hold.currency,
        journalEntryIds: p.after.journalEntryIds,
        settledAt: p.now,
        signerPublicKey: this.signer.publicKey,
      },
      this.signer.privateKey,
    );
    return {
      result: { receipt, hold: p.after, idempotentReplayed: false },
      guardWanted: p.after.status,
      plan: {
        now: p.now,
        guard: { entity: 'hold', id: p.hold.holdId, status: 'active' },
        entry: p.entry,
        writes: [
          { table: 'holds', value: p.after },
          { table: 'receipts', value: receipt },
        ],
        events: [settlementEvents.receiptIssued(receipt, p.after, p.caller)],
      },
    };
  }

  /**
   * Erroneous clear: one compensating entry reversing a settlement receipt, with a signed
   * correction receipt referencing it. Idempotent like Settle (scope = the payer). It obeys no
   * kill switch — the operator corrects while settlements are halted — but read-only mode.
   */
  async correctSettlement(req: CorrectSettlementCommand, caller: Caller): Promise<CorrectionResult> {
    const payer = requireText(req.agentId, 'agent_id');
    const idempotency = claimFor(payer, req, 'correct_settlement');
    const receiptId = requireText(req.receiptId, 'receipt_id');
    const reason = requireText(req.reason, 'reason', 500);
    await this.ctx.agents.get(payer);
    // The correction takes the money back from the payee: a frozen payee's money does not move.
    // A merchant payee is not an agent (its settlement account pays back; checked in the plan).
    const settled = await this.ctx.receipts.receipt(receiptId);
    if (settled && settled.payer === payer && settled.kind === 'settlement' && merchantDomainOf(settled.payee) === null) {
      await activeAgent(this.ctx, settled.payee);
    }

    // A merchant's settlement may have purchase refunds: the correction is decided under their
    // counter's lock and moves the counter by the merchant's share it takes back, so a refund and
    // the correction never both pay the same money back (purchase-refunds/). Everything is read
    // before that lock, never under it (a plan waiting for a pool connection while its
    // transaction holds one could starve the pool); the balances are re-checked by their CHECKs
    // and a second correction by the unique index.
    const original = settled;
    const merchantSettled = original !== undefined && original.kind === 'settlement' && merchantDomainOf(original.payee) !== null;
    const [existingCorrection, feesBalance, merchantBalance, hold] = await Promise.all([
      this.ctx.receipts.correctionOf(receiptId),
      original ? this.ctx.balances.systemBalance(accountId(systemAccount(original.currency, 'fees'))) : Promise.resolve(0n),
      merchantSettled ? this.ctx.balances.systemBalance(accountId(payeeAccount(original.payee, original.currency))) : Promise.resolve(null),
      original ? this.ctx.holds.hold(original.holdId) : Promise.resolve(undefined),
    ]);
    const counter = merchantSettled ? purchaseRefundCounter(original) : undefined;
    try {
      return await execute(this.ctx.writer, {
        idempotency,
        codec: this.ctx.codecs.correctSettlement,
        counter,
        plan: async (purchaseRefunded) => {
          const now = this.ctx.clock();
          const entryId = newId('jrn');
          const decided = decide(now, () =>
            planCorrection({
              payer,
              original,
              existingCorrection,
              feesBalance,
              merchantBalance,
              purchaseRefunded: counter ? purchaseRefunded : 0n,
              receiptId: newId('rcpt'),
              journalEntryId: entryId,
              reason,
              now,
              signerPublicKey: this.signer.publicKey,
            }),
          );
          if ('refused' in decided) return decided;
          const receipt = signReceipt(decided.value, this.signer.privateKey);
          const { currency, payee, amount, fee } = receipt;
          return {
            result: { receipt, idempotentReplayed: false },
            onInsufficient: (available) => walletErrors.insufficientFunds(currency, formatAmount(available), formatAmount(amount - fee)),
            plan: {
              now,
              counter: counter && { ...counter, expect: purchaseRefunded, delta: amount - fee },
              entry: { entryId, kind: 'correction', currency, postings: correctionPostings({ payer, payee: payeeAccount(payee, currency), currency, amount, fee }) },
              writes: [{ table: 'receipts', value: receipt }],
              events: [settlementEvents.receiptIssued(receipt, must(hold), caller)],
            },
          };
        },
      });
    } catch (err) {
      // Two corrections of one receipt racing with different keys: the unique index keeps one.
      if ((err as { code?: string }).code === '23505') {
        throw errors.failedPrecondition('invalid_state', `receipt ${receiptId} is already corrected`, { current: 'corrected', wanted: 'corrected' });
      }
      throw err;
    }
  }
}
