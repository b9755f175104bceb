import { must } from '../domain/invariant';
import { errors, newId } from '@exchange/platform';
import { isUniqueViolation } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as offersRepo from './offers.repo';
import type { Page } from '../data/repo-kit';
import { actingAgent, isOperator, requireOperator, resolveParty, type Caller } from '../domain/caller';
import type { Contract, Offer, OfferStatus } from '../domain/model';
import type { AwardParams } from '../domain/steps';
import { transition } from '../domain/states';
import * as v from '../domain/validation';
import { events } from '../events/market.events';
import { runStep } from '../saga/executor';
import { notFound, pageQuery, type PageRequest } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { checkResaleAward, checkResaleOffer } from '../governance/resale-hooks.service';
import { ContractUseCases, checkBeforeDeadline, newStep, awardInProgress, type ContractKitDeps } from '../service/contract-kit';
import type { MarketRuntime } from '../service/runtime';

export interface NewOffer {
  contractId: string;
  sellerId: string;
  price: { amount: string; currency: string } | undefined;
  eta: Date | undefined;
  terms: string;
}

export interface OfferQuery {
  contractId: string;
  sellerId?: string;
  /** Parsed after the page (a bad cursor is reported first), by the mapper. */
  status: () => OfferStatus | undefined;
  page?: PageRequest;
}

/** The contract kit's deps plus what offers use cases read. */
export type OffersDeps = ContractKitDeps & Pick<MarketRuntime, 'agents'>;

/** Offers: submit before the deadline, withdraw, and award (the award saga step holds the escrow). */
export class OffersService extends ContractUseCases<OffersDeps> {
  async submitOffer(req: NewOffer, caller: Caller): Promise<Offer> {
    const now = this.ctx.clock();
    const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
    const price = v.money('price', req.price);
    const eta = v.futureEta(req.eta, now);
    const terms = v.text('terms', req.terms, 0, 20000);
    await this.contractOr404(req.contractId);
    await this.ctx.agents.active(sellerId);
    const offer = await this.tx(async (client) => {
      const c = await contractsRepo.lockContract(client, req.contractId);
      if (!c) throw notFound('contract', req.contractId);
      if (c.status !== 'open') throw errors.invalidState('contract', c.status, 'open');
      checkBeforeDeadline(c, now);
      v.etaWithinDeadline(eta, c.deadline);
      if (sellerId === c.buyerId) throw errors.permissionDenied('self_dealing', 'the buyer cannot make an offer on its own contract');
      if (sellerId === c.verifierId) throw errors.permissionDenied('conflict_of_interest', "the contract's verifier cannot make an offer on it");
      await checkResaleOffer(client, c, sellerId);
      if (price.currency !== c.currency) {
        throw errors.invalidArgument('currency_mismatch', `price currency ${price.currency} is not the budget currency ${c.currency}`, { field: 'price' });
      }
      if (price.amount > c.budget) throw errors.invalidArgument('price_exceeds_budget', 'price exceeds the contract budget', { field: 'price' });
      const o: Offer = {
        offerId: newId('ofr'),
        contractId: c.contractId,
        sellerId,
        price: price.amount,
        currency: price.currency,
        eta,
        terms,
        status: 'submitted',
        createdAt: now,
        updatedAt: now,
      };
      try {
        await offersRepo.insertOffer(client, o);
      } catch (err) {
        if (isUniqueViolation(err, 'offers_one_submitted_per_seller')) {
          throw errors.failedPrecondition('offer_exists', 'this seller already has a submitted offer on the contract', { seller_id: sellerId });
        }
        throw err;
      }
      await events.offer(client, 'submitted', o, caller);
      return o;
    });
    return offer;
  }

  async getOffer(offerId: string): Promise<Offer> {
    const o = await offersRepo.getOffer(this.pool, offerId);
    if (!o) throw notFound('offer', offerId);
    return o;
  }

  async listOffers(req: OfferQuery): Promise<Page<Offer>> {
    const q = pageQuery(req.page);
    const status = req.status();
    await this.contractOr404(req.contractId);
    return offersRepo.listOffers(this.pool, req.contractId, { sellerId: req.sellerId || undefined, status }, q);
  }

  async withdrawOffer(offerId: string, caller: Caller): Promise<Offer> {
    const found = await offersRepo.getOffer(this.pool, offerId);
    if (!found) throw notFound('offer', offerId);
    const offer = await this.tx(async (client) => {
      await contractsRepo.lockContract(client, found.contractId);
      const o = must(await offersRepo.getOffer(client, offerId), 'offer');
      const agent = actingAgent(caller);
      if (!isOperator(caller) && agent !== o.sellerId) {
        throw errors.permissionDenied('not_offer_seller', 'only the offer seller or an operator may withdraw it');
      }
      transition('offer', o.status, 'withdrawn');
      if (await stepsRepo.hasPendingStep(client, o.contractId, 'award')) {
        throw errors.failedPrecondition('invalid_state', 'an award of this contract is in progress', { current: o.status, wanted: 'withdrawn' });
      }
      const now = this.ctx.clock();
      const after: Offer = { ...o, status: 'withdrawn', updatedAt: now };
      await offersRepo.setOfferStatus(client, o.offerId, 'withdrawn', now);
      await events.offer(client, 'withdrawn', after, caller);
      return after;
    });
    return offer;
  }

  async awardOffer(req: { contractId: string; offerId: string }, caller: Caller): Promise<{ contract: Contract; offer: Offer }> {
    requireOperator(caller);
    await enforceIntegrity(this.pool, 'award');
    await this.contractOr404(req.contractId);
    await this.drainOrFail(req.contractId);
    const step = await this.tx(async (client) => {
      const c = await contractsRepo.lockContract(client, req.contractId);
      if (!c) throw notFound('contract', req.contractId);
      transition('contract', c.status, 'awarded');
      checkBeforeDeadline(c, this.ctx.clock());
      await checkResaleAward(client, c);
      const o = await offersRepo.getOffer(client, req.offerId);
      if (!o || o.contractId !== c.contractId) throw notFound('offer', req.offerId);
      transition('offer', o.status, 'awarded');
      if (await stepsRepo.hasPendingStep(client, c.contractId, 'award')) throw awardInProgress(c);
      const params: AwardParams = { offerId: o.offerId, buyerId: c.buyerId, sellerId: o.sellerId, price: o.price.toString(), currency: o.currency };
      const s = newStep(c.contractId, 'award', params, this.ctx.clock());
      try {
        await stepsRepo.insertStep(client, s);
      } catch (err) {
        if (isUniqueViolation(err, 'saga_steps_one_pending_award')) throw awardInProgress(c);
        throw err;
      }
      return s;
    });
    this.throwUnlessDone(await runStep(this.ctx, step.stepId, caller));
    const contract = await this.contractOr404(req.contractId);
    const offer = must(await offersRepo.getOffer(this.pool, req.offerId), 'offer');
    return { contract, offer };
  }
}
