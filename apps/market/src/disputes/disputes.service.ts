import { must } from '../domain/invariant';
import { errors, newId } from '@exchange/platform';
import { isUniqueViolation } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as disputesRepo from './disputes.repo';
import type { Page } from '../data/repo-kit';
import { requireOperator, resolveParty, type Caller } from '../domain/caller';
import type { Contract, Dispute, DisputeOutcome, DisputeStatus, SagaStep } from '../domain/model';
import { resolutionPlan } from '../domain/money';
import type { ResolveParams } from '../domain/steps';
import { checkDisputeWindow, transition } from '../domain/states';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import { runStep } from '../saga/executor';
import { walletUnavailable } from '../saga/wallet-errors';
import { notFound, pageQuery, type PageRequest } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { ContractUseCases, newStep, type ContractKitDeps } from '../service/contract-kit';
import type { MarketRuntime } from '../service/runtime';

/** OpenDispute drains and retries when a step it may not supersede shows up; then 503 wallet_unavailable. */
const DISPUTE_DRAIN_ROUNDS = 3;

/**
 * A pending step OpenDispute may drop: a settle step whose last run got a definite refusal from
 * wallet-ledger (kill switch…), so the Settle call never took effect. A step never run, or whose
 * last failure was indefinite, may already have been executed by the wallet.
 */
function isSupersedable(step: SagaStep): boolean {
  return step.kind === 'settle' && step.attempts > 0 && step.lastFailureDefinite;
}

export interface NewDispute {
  contractId: string;
  openedBy: string;
  reason: string;
  evidenceRefs: readonly string[];
}

export interface DisputeQuery {
  contractId: string;
  openedBy?: string;
  /** Parsed after the page (a bad cursor is reported first), by the mapper. */
  status: () => DisputeStatus | undefined;
  page?: PageRequest;
}

export interface Resolution {
  disputeId: string;
  /** Parsed after the operator check, by the mapper. */
  outcome: () => DisputeOutcome;
  sellerShareBps?: number;
  rationale: string;
}

/** The contract kit's deps plus what disputes use cases read. */
export type DisputesDeps = ContractKitDeps & Pick<MarketRuntime, 'agents' | 'disputeWindowDays'>;

/** Disputes: open (draining and superseding refused settle steps), read, and resolve through the resolve saga step. */
export class DisputesService extends ContractUseCases<DisputesDeps> {
  async openDispute(req: NewDispute, caller: Caller): Promise<{ dispute: Dispute; contract: Contract }> {
    const openedBy = resolveParty(caller, 'opened_by', req.openedBy);
    const reason = v.text('reason', req.reason, 1, 20000);
    const evidenceRefs = v.refs('evidence_refs', req.evidenceRefs, 100, 500);
    const c0 = await this.contractOr404(req.contractId);
    if (openedBy !== c0.buyerId && openedBy !== c0.sellerId) {
      throw errors.permissionDenied('not_contract_party', 'only the buyer or the awarded seller may open a dispute');
    }
    await this.ctx.agents.active(openedBy);
    let opened: { dispute: Dispute; contract: Contract } | null = null;
    for (let round = 0; round < DISPUTE_DRAIN_ROUNDS && opened === null; round++) {
      await this.drainOrFail(req.contractId);
      opened = await this.tx(async (client) => {
        const c = must(await contractsRepo.lockContract(client, req.contractId), 'contract');
        transition('contract', c.status, 'disputed');
        const now = this.ctx.clock();
        if (c.status === 'settled') checkDisputeWindow(c.settledAt, now, this.ctx.disputeWindowDays);
        // Settlement pauses while the dispute is open: a settle step the wallet refused for good
        // (kill switch) is dropped. Any other pending step (one committed after our drain, maybe by
        // a replica that crashed after the wallet executed it, or one whose last run got no answer)
        // may already have moved money: leave it, drain again and retry (null = nothing written).
        const pending = await stepsRepo.pendingSteps(client, c.contractId);
        if (!pending.every(isSupersedable)) return null;
        for (const step of pending) await stepsRepo.updateStep(client, step.stepId, 'superseded', step.attempts, step.lastError, step.lastFailureDefinite, now);
        const d: Dispute = {
          disputeId: newId('dsp'),
          contractId: c.contractId,
          openedBy,
          reason,
          evidenceRefs,
          status: 'open',
          outcome: null,
          sellerShareBps: null,
          rationale: null,
          resolvedBy: null,
          resolvedAt: null,
          receiptId: null,
          createdAt: now,
          updatedAt: now,
        };
        const after: Contract = { ...c, status: 'disputed', disputedFrom: c.status, updatedAt: now };
        try {
          await disputesRepo.insertDispute(client, d);
        } catch (err) {
          if (isUniqueViolation(err, 'disputes_one_open_per_contract')) throw errors.invalidState('contract', 'disputed', 'disputed');
          throw err;
        }
        await contractsRepo.saveContract(client, after);
        await events.dispute(client, 'opened', d, after, caller);
        await events.contract(client, 'disputed', after, caller);
        return { dispute: d, contract: after };
      });
    }
    if (opened === null) throw walletUnavailable();
    const { dispute, contract } = opened;
    return { dispute, contract };
  }

  async getDispute(disputeId: string): Promise<Dispute> {
    const d = await disputesRepo.getDispute(this.pool, disputeId);
    if (!d) throw notFound('dispute', disputeId);
    return d;
  }

  async listDisputes(req: DisputeQuery): Promise<Page<Dispute>> {
    const q = pageQuery(req.page);
    const status = req.status();
    await this.contractOr404(req.contractId);
    return disputesRepo.listDisputes(this.pool, req.contractId, { openedBy: req.openedBy || undefined, status }, q);
  }

  async resolveDispute(req: Resolution, caller: Caller): Promise<{ dispute: Dispute; contract: Contract }> {
    requireOperator(caller);
    const outcome = req.outcome();
    const sellerShareBps = v.sellerShareBps(outcome, req.sellerShareBps);
    const rationale = v.text('rationale', req.rationale, 1, 20000);
    const d0 = await disputesRepo.getDispute(this.pool, req.disputeId);
    if (!d0) throw notFound('dispute', req.disputeId);
    await this.drainOrFail(d0.contractId);
    const step = await this.tx(async (client) => {
      const c = must(await contractsRepo.lockContract(client, d0.contractId), 'contract');
      const d = must(await disputesRepo.getDispute(client, req.disputeId), 'dispute');
      transition('dispute', d.status, 'resolved');
      if (await stepsRepo.hasPendingStep(client, c.contractId, 'resolve')) {
        throw errors.failedPrecondition('invalid_state', 'a resolution of this dispute is in progress', { current: d.status, wanted: 'resolved' });
      }
      const plan = resolutionPlan({ escrowHeld: c.escrowStatus === 'held', price: must(c.price, 'price'), feeBps: this.ctx.feeBps, outcome, sellerShareBps });
      transition('contract', c.status, plan.contractStatus);
      // Paying the seller out of escrow is a settlement; refunds and post-settlement transfers back are not.
      if (plan.wallet === 'settle') await enforceIntegrity(client, 'settle');
      const params: ResolveParams = {
        disputeId: d.disputeId,
        buyerId: c.buyerId,
        sellerId: must(c.sellerId, 'seller_id'),
        holdId: c.holdId,
        currency: c.currency,
        outcome,
        sellerShareBps,
        rationale,
        resolvedBy: must(caller.actor, 'actor'),
        plan,
      };
      const s = newStep(c.contractId, 'resolve', params, this.ctx.clock());
      await stepsRepo.insertStep(client, s);
      return s;
    });
    this.throwUnlessDone(await runStep(this.ctx, step.stepId, caller));
    const dispute = must(await disputesRepo.getDispute(this.pool, req.disputeId), 'dispute');
    const contract = await this.contractOr404(d0.contractId);
    return { dispute, contract };
  }
}
