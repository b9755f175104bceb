import { must } from '../domain/invariant';
import { status } from '@grpc/grpc-js';
import { formatAmount, type GrpcErrorInfo } from '@exchange/platform';
import type pg from 'pg';
import type { FaultPoint } from '../config';
import { withTransaction } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as disputesRepo from '../disputes/disputes.repo';
import * as offersRepo from '../offers/offers.repo';
import type { Caller } from '../domain/caller';
import type { Contract, Dispute, SagaKind, SagaStep } from '../domain/model';
import type { AwardParams, ReleaseParams, ResolveParams, SettleParams } from '../domain/steps';
import { transition } from '../domain/states';
import { events, SYSTEM_CALLER } from '../events/market.events';
import type { MarketRuntime } from '../service/runtime';
import { errorInfoFromGrpc, isDefiniteFailure } from './wallet-errors';
import { applyCorrection, type CorrectParams } from '../integrity/correction.service';
import { enforceIntegrity } from '../integrity/gate.service';

/** What running a saga step needs: the database, wallet-ledger, the clock, the log, the fault points and the relay's nudge. */
export type SagaDeps = Pick<MarketRuntime, 'pool' | 'wallet' | 'clock' | 'logger' | 'faults' | 'notify'>;

/** How a step run ended: done, refused for good (award/resolve), or still pending (definite = refused but retried later). */
export type StepOutcome =
  | { status: 'done' | 'superseded' }
  | { status: 'failed'; error: GrpcErrorInfo }
  | { status: 'pending'; definite: boolean; error: GrpcErrorInfo };

/** The refusal a failed step recorded ("<code>: <message>"), for a caller that finds it already decided. */
function storedError(step: SagaStep): GrpcErrorInfo {
  const text = step.lastError ?? 'failed: saga step failed';
  const sep = text.indexOf(': ');
  return { grpcCode: status.FAILED_PRECONDITION, code: sep > 0 ? text.slice(0, sep) : text, message: sep > 0 ? text.slice(sep + 2) : text };
}

const FAULT_OF: Partial<Record<SagaKind, FaultPoint>> = {
  award: 'award:after_hold',
  settle: 'settle:after_consume',
  release: 'release:after_refund',
  resolve: 'resolve:after_wallet',
};

/**
 * Runs one saga step: in one transaction that locks the contract row, re-checks the step is
 * still pending, calls wallet-ledger with the step's idempotency key, applies the answer and
 * marks the step done. A crash anywhere rolls back the local part; the next run replays the
 * wallet call with the same key and gets the same answer.
 */
export async function runStep(ctx: SagaDeps, stepId: string, caller: Caller = SYSTEM_CALLER): Promise<StepOutcome> {
  let wroteEvents = false;
  const outcome = await withTransaction(ctx.pool, async (client) => {
    const first = await stepsRepo.getStep(client, stepId);
    if (!first) throw new Error(`saga step ${stepId} not found`);
    const contract = await contractsRepo.lockContract(client, first.contractId);
    const step = await stepsRepo.getStep(client, stepId); // re-read under the contract lock
    if (!contract || !step) throw new Error(`contract of saga step ${stepId} not found`);
    if (step.status === 'failed') return { status: 'failed', error: storedError(step) } as StepOutcome;
    if (step.status !== 'pending') return { status: step.status } as StepOutcome;
    const now = ctx.clock();
    let answer: WalletAnswer;
    try {
      // Settlement gate (integrity): a settle step recorded before the switch/halt waits, pending.
      if (step.kind === 'settle') await enforceIntegrity(client, 'settle');
      answer = await callWallet(ctx, step);
    } catch (err) {
      const error = errorInfoFromGrpc(err);
      const definite = isDefiniteFailure(err);
      const attempts = step.attempts + 1;
      const lastError = `${error.code}: ${error.message}`.slice(0, 1000);
      if (definite && (step.kind === 'award' || step.kind === 'resolve' || step.kind === 'correct')) {
        await stepsRepo.updateStep(client, step.stepId, 'failed', attempts, lastError, true, now);
        return { status: 'failed', error } as StepOutcome;
      }
      ctx.logger.warn({ step_id: step.stepId, kind: step.kind, contract_id: step.contractId, code: error.code, definite }, 'saga step not completed');
      await stepsRepo.updateStep(client, step.stepId, 'pending', attempts, lastError, definite, now);
      return { status: 'pending', definite, error } as StepOutcome;
    }
    const fault = FAULT_OF[step.kind];
    if (fault && ctx.faults.has(fault)) {
      ctx.logger.warn({ fault, step_id: step.stepId }, 'fault injection: killing the process');
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined); // never commit
    }
    await apply(ctx, client, contract, step, answer, now, caller);
    await stepsRepo.updateStep(client, step.stepId, 'done', step.attempts + 1, null, false, now);
    wroteEvents = true;
    return { status: 'done' } as StepOutcome;
  });
  if (wroteEvents) ctx.notify();
  return outcome;
}

/**
 * Runs the contract's pending steps in creation order. Stops at the first one left pending
 * without a definite answer (the wallet is unreachable): returns false then.
 */
export async function drain(ctx: SagaDeps, contractId: string): Promise<{ reachable: boolean; done: number }> {
  let done = 0;
  for (const step of await stepsRepo.pendingSteps(ctx.pool, contractId)) {
    const outcome = await runStep(ctx, step.stepId);
    if (outcome.status === 'done') done++;
    if (outcome.status === 'pending' && !outcome.definite) return { reachable: false, done };
  }
  return { reachable: true, done };
}

interface WalletAnswer {
  holdId?: string;
  receiptId?: string;
}

async function callWallet(ctx: Pick<SagaDeps, 'wallet'>, step: SagaStep): Promise<WalletAnswer> {
  const key = step.walletKey;
  switch (step.kind) {
    case 'award': {
      const p = step.params as unknown as AwardParams;
      const res = await ctx.wallet.createHold({
        agentId: p.buyerId,
        amount: formatAmount(BigInt(p.price)),
        currency: p.currency,
        expiresAt: undefined,
        reference: step.contractId,
        idempotencyKey: key,
        // Escrow is the market's: only its Settle/Refund move it (wallet routes answer 403 hold_controlled_by_market).
        controller: 'market',
      });
      return { holdId: res.hold?.holdId };
    }
    case 'settle': {
      const p = step.params as unknown as SettleParams;
      const res = await ctx.wallet.settle({
        agentId: p.buyerId,
        holdId: p.holdId,
        contractId: step.contractId,
        payeeAgentId: p.sellerId,
        amount: formatAmount(BigInt(p.amount)),
        fee: formatAmount(BigInt(p.fee)),
        idempotencyKey: key,
      });
      return { receiptId: res.receipt?.receiptId };
    }
    case 'release': {
      const p = step.params as unknown as ReleaseParams;
      const res = await ctx.wallet.refund({ agentId: p.buyerId, holdId: p.holdId, contractId: step.contractId, idempotencyKey: key });
      return { receiptId: res.receipt?.receiptId };
    }
    case 'resolve': {
      const p = step.params as unknown as ResolveParams;
      const plan = p.plan;
      if (plan.wallet === 'settle') {
        const res = await ctx.wallet.settle({
          agentId: p.buyerId,
          holdId: must(p.holdId, 'hold_id'),
          contractId: step.contractId,
          payeeAgentId: p.sellerId,
          amount: formatAmount(BigInt(plan.amount)),
          fee: formatAmount(BigInt(plan.fee)),
          idempotencyKey: key,
        });
        return { receiptId: res.receipt?.receiptId };
      }
      if (plan.wallet === 'refund') {
        const res = await ctx.wallet.refund({ agentId: p.buyerId, holdId: must(p.holdId, 'hold_id'), contractId: step.contractId, idempotencyKey: key });
        return { receiptId: res.receipt?.receiptId };
      }
      if (plan.wallet === 'transfer') {
        // Post-settlement: the seller pays back; the seller is the idempotency scope.
        await ctx.wallet.transfer({
          agentId: p.sellerId,
          toAgentId: p.buyerId,
          amount: formatAmount(BigInt(plan.amount)),
          currency: p.currency,
          memo: `dispute ${p.disputeId} of ${step.contractId}`,
          idempotencyKey: key,
        });
      }
      return {};
    }
    case 'correct': {
      // Erroneous clear: wallet-ledger reverses the settlement receipt; the buyer is the scope.
      const p = step.params as unknown as CorrectParams;
      const res = await ctx.wallet.correctSettlement({ agentId: p.buyerId, receiptId: p.receiptId, reason: p.reason, idempotencyKey: key });
      return { receiptId: res.receipt?.receiptId };
    }
  }
}

async function apply(
  ctx: Pick<SagaDeps, 'logger'>,
  client: pg.PoolClient,
  contract: Contract,
  step: SagaStep,
  answer: WalletAnswer,
  now: Date,
  caller: Caller,
): Promise<void> {
  switch (step.kind) {
    case 'award': {
      const p = step.params as unknown as AwardParams;
      const offer = await offersRepo.getOffer(client, p.offerId);
      if (contract.status !== 'open' || !offer || offer.status !== 'submitted') {
        // Award steps block withdraw/cancel/expiry while pending, so this means a bug: keep the record.
        ctx.logger.error({ step_id: step.stepId, contract_id: contract.contractId, hold_id: answer.holdId }, 'award applied to a contract that moved on');
        return;
      }
      const awarded: Contract = {
        ...contract,
        status: transition('contract', contract.status, 'awarded'),
        sellerId: p.sellerId,
        awardedOfferId: p.offerId,
        price: BigInt(p.price),
        holdId: answer.holdId ?? null,
        escrowStatus: 'held',
        awardedAt: now,
        updatedAt: now,
      };
      await contractsRepo.saveContract(client, awarded);
      await offersRepo.setOfferStatus(client, offer.offerId, transition('offer', offer.status, 'awarded'), now);
      await events.offer(client, 'awarded', { ...offer, status: 'awarded', updatedAt: now }, caller);
      for (const other of await offersRepo.submittedOffers(client, contract.contractId)) {
        await offersRepo.setOfferStatus(client, other.offerId, 'rejected', now);
        await events.offer(client, 'rejected', { ...other, status: 'rejected', updatedAt: now }, caller);
      }
      await events.contract(client, 'awarded', awarded, caller);
      return;
    }
    case 'settle': {
      if (contract.status !== 'accepted') {
        ctx.logger.error({ step_id: step.stepId, contract_id: contract.contractId, status: contract.status }, 'settle applied to a contract not accepted');
        return;
      }
      const settled: Contract = {
        ...contract,
        status: transition('contract', contract.status, 'settled'),
        escrowStatus: 'settled',
        receiptId: answer.receiptId ?? contract.receiptId,
        settledAt: now,
        updatedAt: now,
      };
      await contractsRepo.saveContract(client, settled);
      await events.contract(client, 'settled', settled, caller);
      return;
    }
    case 'release': {
      // The contract already moved to cancelled/expired with the step; the escrow is now back.
      await contractsRepo.saveContract(client, { ...contract, escrowStatus: 'released', receiptId: answer.receiptId ?? contract.receiptId, updatedAt: now });
      return;
    }
    case 'resolve': {
      const p = step.params as unknown as ResolveParams;
      const dispute = await disputesRepo.getDispute(client, p.disputeId);
      if (!dispute || dispute.status !== 'open' || contract.status !== 'disputed') {
        ctx.logger.error({ step_id: step.stepId, dispute_id: p.disputeId }, 'resolution applied to a dispute no longer open');
        return;
      }
      const plan = p.plan;
      const resolved: Dispute = {
        ...dispute,
        status: transition('dispute', dispute.status, 'resolved'),
        outcome: p.outcome,
        sellerShareBps: p.sellerShareBps,
        rationale: p.rationale,
        resolvedBy: p.resolvedBy,
        resolvedAt: now,
        receiptId: answer.receiptId ?? null,
        updatedAt: now,
      };
      const after: Contract = {
        ...contract,
        status: transition('contract', contract.status, plan.contractStatus),
        escrowStatus: plan.escrowStatus,
        receiptId: answer.receiptId ?? contract.receiptId,
        settledAt: plan.wallet === 'settle' && contract.settledAt === null ? now : contract.settledAt,
        updatedAt: now,
      };
      await disputesRepo.saveDispute(client, resolved);
      await contractsRepo.saveContract(client, after);
      await events.dispute(client, 'resolved', resolved, after, caller);
      await events.contract(client, after.status as 'settled' | 'refunded' | 'split', after, caller);
      return;
    }
    case 'correct':
      await applyCorrection(client, contract, step, answer.receiptId, now, caller, ctx.logger);
      return;
  }
}
