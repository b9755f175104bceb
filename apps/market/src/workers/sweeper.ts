import { must } from '../domain/invariant';
import { withTransaction } from '@exchange/db';
import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as offersRepo from '../offers/offers.repo';
import type { Contract, SagaStep } from '../domain/model';
import { walletKey, type ReleaseParams } from '../domain/steps';
import { transition } from '../domain/states';
import { events, SYSTEM_CALLER } from '../events/market.events';
import type { MarketRuntime } from '../service/runtime';
import { runStep, type SagaDeps } from '../saga/executor';
import { uuidv7 } from '@exchange/platform';

const BATCH = 100;

/**
 * One deadline sweep: open contracts past their deadline → expired (submitted offers rejected);
 * awarded ones past deadline + MARKET_AWARD_GRACE_MS → expired with a release step, run at once
 * (left to recovery when the wallet does not answer). Returns how many contracts expired.
 */
export async function sweepDeadlines(ctx: SagaDeps & Pick<MarketRuntime, 'awardGraceMs'>): Promise<number> {
  const now = ctx.clock();
  let expired = 0;
  for (const id of await contractsRepo.dueContracts(ctx.pool, now, ctx.awardGraceMs, BATCH)) {
    let release: SagaStep | null = null;
    const changed = await withTransaction(ctx.pool, async (client) => {
      const c = await contractsRepo.lockContract(client, id);
      if (!c) return false;
      const due = c.status === 'open' ? c.deadline < now : c.status === 'awarded' && c.deadline.getTime() + ctx.awardGraceMs < now.getTime();
      // An award in flight decides the contract's fate first.
      if (!due || (await stepsRepo.hasPendingStep(client, c.contractId, 'award'))) return false;
      const after: Contract = { ...c, status: transition('contract', c.status, 'expired'), updatedAt: now };
      await contractsRepo.saveContract(client, after);
      for (const o of await offersRepo.submittedOffers(client, c.contractId)) {
        await offersRepo.setOfferStatus(client, o.offerId, 'rejected', now);
        await events.offer(client, 'rejected', { ...o, status: 'rejected', updatedAt: now }, SYSTEM_CALLER);
      }
      if (c.status === 'awarded' && c.escrowStatus === 'held') {
        const stepId = uuidv7();
        const params: ReleaseParams = { buyerId: c.buyerId, holdId: must(c.holdId, 'hold_id'), reason: 'expired' };
        release = {
          stepId,
          contractId: c.contractId,
          kind: 'release',
          status: 'pending',
          params: params as unknown as Record<string, unknown>,
          walletKey: walletKey(c.contractId, 'release', stepId),
          attempts: 0,
          lastError: null,
          lastFailureDefinite: false,
          createdAt: now,
          updatedAt: now,
        };
        await stepsRepo.insertStep(client, release);
      }
      await events.contract(client, 'expired', after, SYSTEM_CALLER);
      return true;
    });
    if (!changed) continue;
    expired++;
    ctx.notify();
    if (release) {
      await runStep(ctx, (release as SagaStep).stepId).catch((err: unknown) =>
        ctx.logger.warn({ err: (err as Error).message, contract_id: id }, 'release left to recovery'),
      );
    }
  }
  return expired;
}
