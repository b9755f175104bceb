import * as contractsRepo from '../contracts/contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import type { MarketRuntime } from '../service/runtime';
import { drain, type SagaDeps } from '../saga/executor';

const BATCH = 100;

/**
 * One recovery pass: the pending saga steps (all of them at start-up, else those older than
 * `minAgeMs`, so a request still running its own step is left alone), per contract in creation
 * order. Returns how many steps completed.
 */
export async function recoverSteps(ctx: SagaDeps, minAgeMs: number | null): Promise<number> {
  const olderThan = minAgeMs === null ? null : new Date(ctx.clock().getTime() - minAgeMs);
  let done = 0;
  for (const contractId of await stepsRepo.contractsWithPendingSteps(ctx.pool, olderThan, BATCH)) {
    try {
      done += (await drain(ctx, contractId)).done;
    } catch (err) {
      ctx.logger.warn({ err: (err as Error).message, contract_id: contractId }, 'recovery of a contract failed');
    }
  }
  return done;
}

/**
 * Private contracts whose buyer alias identity could not mint at creation (identity or registry
 * down): minted now. Returns how many were completed.
 */
export async function recoverBuyerAliases(ctx: Pick<MarketRuntime, 'pool' | 'aliases'>): Promise<number> {
  if (!ctx.aliases) return 0;
  let done = 0;
  for (const { contractId, buyerId } of await contractsRepo.contractsMissingBuyerAlias(ctx.pool, BATCH)) {
    const alias = await ctx.aliases.mint(contractId, buyerId, null);
    if (alias === null) break; // identity is still unreachable: next round
    await contractsRepo.setBuyerAlias(ctx.pool, contractId, alias);
    done++;
  }
  return done;
}
