import { errors, newId } from '@exchange/platform';
import type pg from 'pg';
import type { Queryable } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import type { Caller } from '../domain/caller';
import type { Contract } from '../domain/model';
import { governanceEvents } from './governance.events';
import * as grepo from './governance.repo';
import { checkAwardable, checkNoResaleCycle, checkResaleParent, lineageOf, type ResaleReview } from './resale';

// The resale rules as MarketService calls them (create, offer, award, reads): each a small step
// so the shared service keeps one line per rule.

/** A walk bound for contracts made before a review existed (never reached: depth is capped at creation). */
const MAX_WALK = 1000;

export interface ResalePlan {
  resaleOf: string;
  rootContractId: string;
  depth: number;
  lineage: string[];
}

/**
 * CreateContract with resale_of: the parent exists (404), the buyer is its awarded seller (403
 * resale_not_party), it is awarded or delivered (409 invalid_state), the chain is not too deep
 * (409 resale_depth_exceeded). Null without resale_of.
 */
export async function planResale(db: Queryable, resaleOf: string | undefined, buyerId: string, maxDepth: number): Promise<ResalePlan | null> {
  if (resaleOf === undefined || resaleOf === '') return null;
  const parent = await contractsRepo.getContract(db, resaleOf);
  if (!parent) throw errors.notFound('contract', resaleOf);
  checkResaleParent(parent, buyerId);
  const chain = await grepo.chainTo(db, resaleOf, maxDepth + 1);
  return { resaleOf, ...lineageOf(chain.map((c) => c.contractId), maxDepth) };
}

/** The pending review of a new resale contract and its event, in the contract's transaction. */
export async function recordResaleReview(client: pg.PoolClient, contract: Contract, plan: ResalePlan, caller: Caller, now: Date): Promise<ResaleReview> {
  const review: ResaleReview = {
    decisionRef: newId('rld'),
    contractId: contract.contractId,
    resaleOf: plan.resaleOf,
    rootContractId: plan.rootContractId,
    depth: plan.depth,
    lineage: plan.lineage,
    status: 'pending',
    decidedBy: null,
    reason: null,
    decidedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await grepo.insertReview(client, review);
  await governanceEvents.review(client, 'created', review, caller);
  return review;
}

/** SubmitOffer on a resale: a buyer upstream in the lineage may not sell it back (409 resale_cycle). */
export async function checkResaleOffer(db: Queryable, contract: Contract, sellerId: string): Promise<void> {
  if (contract.resaleOf === null) return;
  const review = await grepo.reviewOfContract(db, contract.contractId);
  const lineage = review?.lineage ?? (await grepo.chainTo(db, contract.resaleOf, MAX_WALK)).map((c) => c.contractId);
  checkNoResaleCycle(await grepo.buyersOf(db, lineage), sellerId);
}

/** AwardOffer: 409 resale_review_pending while the operator has not approved the lineage. */
export async function checkResaleAward(db: Queryable, contract: Contract): Promise<void> {
  if (contract.resaleOf === null) return;
  checkAwardable(await grepo.reviewOfContract(db, contract.contractId));
}

/** Contracts as read: each resale carries its review (Contract.resale_review). */
export async function withResaleReviews(db: Queryable, contracts: Contract[]): Promise<Contract[]> {
  const ids = contracts.filter((c) => c.resaleOf !== null).map((c) => c.contractId);
  if (ids.length === 0) return contracts;
  const reviews = await grepo.reviewsOfContracts(db, ids);
  return contracts.map((c) => (c.resaleOf === null ? c : { ...c, resaleReview: reviews.get(c.contractId) ?? null }));
}

export async function withResaleReview(db: Queryable, contract: Contract): Promise<Contract> {
  return (await withResaleReviews(db, [contract]))[0] as Contract;
}
