import type pg from 'pg';
import { newId } from '@exchange/platform';
import type { MutationPlan } from '../domain/ledger.ports';
import { releasePostings } from '../domain/postings';
import { dropExpiredIdempotencyKeys } from '../data/idempotency.repo';
import type { PgLedgerWriter } from '../data/ledger.writer';
import { claimAndAct } from '../data/worker-transaction';
import { SYSTEM_CALLER } from '../events/wallet.events';
import type { OperationsRepo } from '../operations/operations.repo';
import { expiredHold } from './holds';
import { holdsEvents } from './holds.events';
import { claimNextExpiredHold } from './holds.repo';

/** Expiries per round at most; the next round continues. */
const MAX_PER_ROUND = 500;

export interface HoldSweeperDeps {
  pool: pg.Pool;
  writer: Pick<PgLedgerWriter, 'applyIn'>;
  controls: Pick<OperationsRepo, 'controls'>;
  clock: () => Date;
  afterCommit: () => void;
}

/**
 * One sweep: expires active holds whose expires_at has passed, each in its own transaction with
 * its own journal entry (held → available) and hold.expired event. Rows are claimed with FOR
 * UPDATE SKIP LOCKED, so several replicas sweep side by side. Also drops idempotency keys past
 * their 30 days. Paused in read-only mode. Returns how many holds it expired.
 */
export async function sweepHolds(deps: HoldSweeperDeps): Promise<number> {
  if ((await deps.controls.controls()).readOnly) return 0;
  let expired = 0;
  while (expired < MAX_PER_ROUND) {
    const now = deps.clock();
    const outcome = await expireNextHold(deps, now);
    if (outcome === undefined || outcome === 'blocked') break;
    if (outcome === 'applied') expired++;
  }
  if (expired > 0) deps.afterCommit();
  await dropExpiredIdempotencyKeys(deps.pool, deps.clock());
  return expired;
}

async function expireNextHold(deps: Pick<HoldSweeperDeps, 'pool' | 'writer'>, now: Date): Promise<string | undefined> {
  return claimAndAct(
    deps.pool,
    (client) => claimNextExpiredHold(client, now),
    async (client, hold) => {
      const entryId = newId('jrn');
      const after = expiredHold(hold, entryId, now);
      const plan: MutationPlan = {
        now,
        guard: { entity: 'hold', id: hold.holdId, status: 'active' },
        entry: { entryId, kind: 'hold_expire', currency: hold.currency, postings: releasePostings(hold.agentId, hold.currency, hold.amount) },
        writes: [{ table: 'holds', value: after }],
        events: [holdsEvents.hold('expired', after, SYSTEM_CALLER)],
      };
      return (await deps.writer.applyIn(client, plan)).kind;
    },
  );
}
