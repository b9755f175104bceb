import { must } from '../domain/invariant';
import { errors, uuidv7 } from '@exchange/platform';
import type pg from 'pg';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as offersRepo from '../offers/offers.repo';
import type { Caller } from '../domain/caller';
import type { Contract, SagaStep } from '../domain/model';
import { feeOf } from '../domain/money';
import { walletKey, type SettleParams } from '../domain/steps';
import { events } from '../events/market.events';
import { drain, runStep, type SagaDeps, type StepOutcome } from '../saga/executor';
import type { MarketRuntime } from './runtime';
import { asDomainError, walletUnavailable } from '../saga/wallet-errors';
import { inTransaction, notFound } from './service-kit';
import { withResaleReview } from '../governance/resale-hooks.service';

/**
 * Offers and awards need the contract's deadline still ahead: at or after it, 409
 * deadline_passed. The contract itself is left open for the deadline sweeper to expire.
 */
export function checkBeforeDeadline(c: Contract, now: Date): void {
  if (now.getTime() >= c.deadline.getTime()) {
    const deadline = c.deadline.toISOString();
    throw errors.failedPrecondition('deadline_passed', `the contract's deadline ${deadline} has passed`, { deadline });
  }
}

export function newStep(contractId: string, kind: SagaStep['kind'], params: object, now: Date): SagaStep {
  const stepId = uuidv7();
  return {
    stepId,
    contractId,
    kind,
    status: 'pending',
    params: params as Record<string, unknown>,
    walletKey: walletKey(contractId, kind, stepId),
    attempts: 0,
    lastError: null,
    lastFailureDefinite: false,
    createdAt: now,
    updatedAt: now,
  };
}

export function awardInProgress(c: Contract) {
  return errors.failedPrecondition('invalid_state', 'award in progress', { current: c.status, wanted: 'awarded' });
}

/** What the kit itself uses: the saga's deps, the buyer alias minting and the fee of a settle step. */
export type ContractKitDeps = SagaDeps & Pick<MarketRuntime, 'aliases' | 'feeBps'>;

/**
 * What every contract use case shares: its deps, one transaction per change (the relay
 * nudged after it), the contract as answered (with its resale review), the saga drain and the
 * step helpers. Each area's service (contracts, offers, results, verification, disputes) extends it.
 */
export abstract class ContractUseCases<D extends ContractKitDeps = ContractKitDeps> {
  constructor(protected readonly ctx: D) {}

  protected get pool() {
    return this.ctx.pool;
  }

  protected tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  /** The contract as answered to callers: a resale carries its lineage review (no query otherwise). */
  protected async contractOr404(id: string): Promise<Contract> {
    const c = await contractsRepo.getContract(this.pool, id);
    if (!c) throw notFound('contract', id);
    return withResaleReview(this.pool, c);
  }

  /** Runs the contract's pending steps first; 503 wallet_unavailable when one is left without an answer. */
  protected async drainOrFail(contractId: string): Promise<void> {
    const { reachable } = await drain(this.ctx, contractId);
    if (!reachable) throw walletUnavailable();
  }

  /** A step run inside a request whose outcome the caller must see (award, resolve). */
  protected throwUnlessDone(outcome: StepOutcome): void {
    if (outcome.status === 'failed') throw asDomainError(outcome.error);
    if (outcome.status === 'pending') throw outcome.definite ? asDomainError(outcome.error) : walletUnavailable();
  }

  /** settle/release in a request: a failure is logged and left to the recovery worker. */
  protected async runQuietly(stepId: string, caller: Caller): Promise<void> {
    try {
      await runStep(this.ctx, stepId, caller);
    } catch (err) {
      this.ctx.logger.warn({ err: (err as Error).message, step_id: stepId }, 'saga step left to recovery');
    }
  }

  /**
   * A private contract's buyer alias, minted through identity when not stored yet (after create, or
   * on a read after identity was unreachable). The contract unchanged when minting fails again.
   */
  protected async withBuyerAlias(c: Contract, traceId: string | null): Promise<Contract> {
    if (!c.buyerPrivate || c.buyerAlias !== null || !this.ctx.aliases) return c;
    const alias = await this.ctx.aliases.mint(c.contractId, c.buyerId, traceId);
    if (alias === null) return c;
    await contractsRepo.setBuyerAlias(this.pool, c.contractId, alias);
    return { ...c, buyerAlias: alias };
  }

  protected async rejectSubmittedOffers(client: pg.PoolClient, contractId: string, now: Date, caller: Caller): Promise<void> {
    for (const o of await offersRepo.submittedOffers(client, contractId)) {
      await offersRepo.setOfferStatus(client, o.offerId, 'rejected', now);
      await events.offer(client, 'rejected', { ...o, status: 'rejected', updatedAt: now }, caller);
    }
  }

  protected async insertSettleStep(client: pg.PoolClient, c: Contract, now: Date): Promise<SagaStep> {
    const price = must(c.price, 'price');
    const params: SettleParams = { buyerId: c.buyerId, sellerId: must(c.sellerId, 'seller_id'), holdId: must(c.holdId, 'hold_id'), amount: price.toString(), fee: feeOf(price, this.ctx.feeBps).toString() };
    const step = newStep(c.contractId, 'settle', params, now);
    await stepsRepo.insertStep(client, step);
    return step;
  }
}
