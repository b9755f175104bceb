import type pg from 'pg';
import { newId } from '@exchange/platform';
import { expiredHold } from '../domain/holds';
import type { MutationPlan } from '../domain/ledger.ports';
import { releasePostings } from '../domain/postings';
import type { PgLedgerWriter } from '../data/ledger.writer';
import { holdFromRow, type WalletReader } from '../data/wallet.reader';
import { SYSTEM_CALLER, walletEvents } from '../events/wallet.events';
import { claimAndAct } from './worker-transaction';

/** Expiries per round at most; the next round continues. */
const MAX_PER_ROUND = 500;

/**
 * One sweep: expires active holds whose expires_at has passed, each in its own transaction with
 * its own journal entry (held → available) and hold.expired event. Rows are claimed with FOR
 * UPDATE SKIP LOCKED, so several replicas sweep side by side. Also drops idempotency keys past
 * their 30 days. Paused in read-only mode. Returns how many holds it expired.
 */
export async function sweepHolds(deps: {
  pool: pg.Pool;
  writer: PgLedgerWriter;
  reader: WalletReader;
  clock: () => Date;
  afterCommit: () => void;
}): Promise<number> {
  if ((await deps.reader.controls()).readOnly) return 0;
  let expired = 0;
  while (expired < MAX_PER_ROUND) {
    const now = deps.clock();
    const outcome = await expireNextHold(deps, now);
    if (outcome === undefined || outcome === 'blocked') break;
    if (outcome === 'applied') expired++;
  }
  if (expired > 0) deps.afterCommit();
  await deps.pool.query(
    `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < $1 LIMIT 1000)`,
    [deps.clock()],
  );
  return expired;
}

async function expireNextHold(deps: { pool: pg.Pool; writer: PgLedgerWriter }, now: Date): Promise<string | undefined> {
  return claimAndAct(
    deps.pool,
    async (client) => {
      const { rows } = await client.query(
        // Only the agent's own holds expire here: a service's hold (market escrow) ends only through
        // that service (it cannot have expires_at; this is the backstop).
        `SELECT * FROM holds WHERE status = 'active' AND expires_at <= $1 AND controller = 'agent'
          ORDER BY expires_at, hold_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [now],
      );
      return rows[0] ? holdFromRow(rows[0]) : undefined;
    },
    async (client, hold) => {
      const entryId = newId('jrn');
      const after = expiredHold(hold, entryId, now);
      const plan: MutationPlan = {
        now,
        guard: { entity: 'hold', id: hold.holdId, status: 'active' },
        entry: { entryId, kind: 'hold_expire', currency: hold.currency, postings: releasePostings(hold.agentId, hold.currency, hold.amount) },
        writes: [{ table: 'holds', value: after }],
        events: [walletEvents.hold('expired', after, SYSTEM_CALLER)],
      };
      return (await deps.writer.applyIn(client, plan)).kind;
    },
  );
}
