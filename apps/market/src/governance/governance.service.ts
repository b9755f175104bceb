import { errors } from '@exchange/platform';
import * as contractsRepo from '../contracts/contracts.repo';
import * as offersRepo from '../offers/offers.repo';
import { requireOperator, type Caller } from '../domain/caller';
import type { Contract, ResaleReview, ResaleReviewStatus } from '../domain/model';
import type { Page } from '../data/repo-kit';
import { events } from '../events/market.events';
import type { MarketRuntime } from '../service/runtime';
import { inTransaction, pageQuery, type PageRequest } from '../service/service-kit';
import { governanceEvents } from './governance.events';
import * as grepo from './governance.repo';
import { decide, decisionReason, parseDecision, rejectionCancelReason } from './resale';
import { withResaleReview } from './resale-hooks.service';

export interface BuyerAliasUpdate {
  contractId: string;
  reason: string;
  buyerPrivate?: boolean;
}

export interface ReviewQuery {
  /** undefined = no filter; null = a value outside the enum (400 after the operator check). */
  status: ResaleReviewStatus | undefined | null;
  contractId?: string;
  page?: PageRequest;
}

export interface ReviewDecision {
  decisionRef: string;
  decision: string;
  reason: string;
}

/** Governance mints buyer alias generations through identity. */
export type GovernanceDeps = Pick<MarketRuntime, 'pool' | 'notify' | 'clock' | 'aliases'>;

/**
 * Operator decisions on contracts (ContractGovernanceService): buyer alias updates and resale
 * lineage reviews. Each decision, its events and its integrity_audit row commit together.
 */
export class GovernanceService {
  constructor(private readonly ctx: GovernanceDeps) {}

  private tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  /**
   * buyer_private true (default): mint generation N+1 through identity FIRST (a failure → 503,
   * nothing changed), then store it; false: the buyer becomes visible (the old aliases stay with
   * identity for the reveals already made).
   */
  async updateBuyerAlias(req: BuyerAliasUpdate, caller: Caller): Promise<{ contract: Contract; previousAlias: string | null }> {
    requireOperator(caller);
    const reason = decisionReason(req.reason);
    const makePrivate = req.buyerPrivate ?? true;
    const before = await contractsRepo.getContract(this.ctx.pool, req.contractId);
    if (!before) throw errors.notFound('contract', req.contractId || '(empty)');
    let alias: string | null = null;
    let generation = before.buyerAliasGeneration;
    if (makePrivate) {
      if (!this.ctx.aliases) throw errors.unavailable('identity_unavailable', 'no identity service is configured for buyer aliases');
      generation += 1;
      alias = await this.ctx.aliases.mintGeneration(before.contractId, before.buyerId, generation, caller.traceId);
    }
    const now = this.ctx.clock();
    const after = await this.tx(async (client) => {
      const c = await contractsRepo.lockContract(client, before.contractId);
      if (!c) throw errors.notFound('contract', before.contractId);
      // Another update committed since we minted: ours would reuse its generation.
      if (c.buyerAliasGeneration !== before.buyerAliasGeneration) {
        throw errors.aborted('concurrent_update', 'the buyer alias was updated concurrently; retry');
      }
      const updated: Contract = { ...c, buyerPrivate: makePrivate, buyerAlias: alias, buyerAliasGeneration: generation, updatedAt: now };
      await grepo.setBuyerPrivacy(client, c.contractId, { buyerPrivate: makePrivate, buyerAlias: alias, generation, updatedAt: now });
      await governanceEvents.buyerAliasUpdated(client, updated, caller);
      await grepo.insertAudit(client, {
        action: 'buyer_alias_updated',
        operator: caller.actor ?? '',
        reason,
        subject: c.contractId,
        details: { buyer_private: makePrivate, previous_alias: c.buyerAlias, buyer_alias: alias, generation },
        createdAt: now,
      });
      return { contract: updated, previousAlias: c.buyerAlias };
    });
    const contract = await withResaleReview(this.ctx.pool, after.contract);
    return { contract, previousAlias: after.previousAlias };
  }

  async listResaleReviews(req: ReviewQuery, caller: Caller): Promise<Page<ResaleReview>> {
    requireOperator(caller);
    const status = req.status;
    if (status === null) throw errors.invalidArgument('validation_failed', 'status is not a known value', { field: 'status' });
    return grepo.listReviews(this.ctx.pool, { status, contractId: req.contractId || undefined }, pageQuery(req.page));
  }

  async getResaleReview(decisionRef: string, caller: Caller): Promise<ResaleReview> {
    requireOperator(caller);
    const review = await grepo.getReview(this.ctx.pool, decisionRef);
    if (!review) throw errors.notFound('resale_review', decisionRef || '(empty)');
    return review;
  }

  /**
   * approve → awards allowed; reject → the review is rejected and the contract CANCELLED (it cannot
   * have been awarded while pending: no escrow to release). A decided review → 409 invalid_state.
   */
  async decideResaleReview(req: ReviewDecision, caller: Caller): Promise<{ review: ResaleReview; contract: Contract }> {
    requireOperator(caller);
    const decision = parseDecision(req.decision);
    const reason = decisionReason(req.reason);
    const found = await grepo.getReview(this.ctx.pool, req.decisionRef);
    if (!found) throw errors.notFound('resale_review', req.decisionRef || '(empty)');
    const decided = await this.tx(async (client) => {
      // The contract row lock orders this against awards and cancels of the same contract.
      const c = await contractsRepo.lockContract(client, found.contractId);
      if (!c) throw errors.notFound('contract', found.contractId);
      const current = await grepo.getReview(client, found.decisionRef);
      if (!current) throw errors.notFound('resale_review', found.decisionRef);
      const now = this.ctx.clock();
      const review = decide(current, decision, caller.actor ?? '', reason, now);
      await grepo.saveReview(client, review);
      await governanceEvents.review(client, 'decided', review, caller);
      let contract: Contract = c;
      if (review.status === 'rejected' && c.status === 'open') {
        contract = { ...c, status: 'cancelled', cancelReason: rejectionCancelReason(reason), updatedAt: now };
        await contractsRepo.saveContract(client, contract);
        for (const o of await offersRepo.submittedOffers(client, c.contractId)) {
          await offersRepo.setOfferStatus(client, o.offerId, 'rejected', now);
          await events.offer(client, 'rejected', { ...o, status: 'rejected', updatedAt: now }, caller);
        }
        await events.contract(client, 'cancelled', { ...contract, resaleReview: review }, caller);
      }
      await grepo.insertAudit(client, {
        action: 'resale_review_decided',
        operator: caller.actor ?? '',
        reason,
        subject: review.decisionRef,
        details: { decision, contract_id: c.contractId, resale_of: review.resaleOf, status: review.status, contract_status: contract.status },
        createdAt: now,
      });
      return { review, contract: { ...contract, resaleReview: review } };
    });
    return decided;
  }
}
