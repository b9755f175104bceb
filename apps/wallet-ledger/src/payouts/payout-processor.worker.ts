import type pg from 'pg';
import { newId } from '@exchange/platform';
import type { AgentDirectory, MutationPlan } from '../domain/ledger.ports';
import { releasePostings, withdrawalPayoutPostings } from '../domain/postings';
import { utcDay } from '../domain/utc-day';
import type { Withdrawal } from '../domain/wallet.model';
import type { PgLedgerWriter } from '../data/ledger.writer';
import { claimAndAct } from '../data/worker-transaction';
import { SYSTEM_CALLER } from '../events/wallet.events';
import type { OperationsRepo } from '../operations/operations.repo';
import { payoutsEvents } from './payouts.events';
import { claimNextOpenWithdrawal } from './payouts.repo';
import { withdrawalCounterKey } from './payouts.service';
import { movedWithdrawal, sandboxPayoutResult } from './withdrawals';

const MAX_PER_ROUND = 500;

export interface PayoutProcessorDeps {
  pool: pg.Pool;
  writer: Pick<PgLedgerWriter, 'applyIn'>;
  controls: Pick<OperationsRepo, 'controls'>;
  agents: Pick<AgentDirectory, 'current'>;
  clock: () => Date;
  afterCommit: () => void;
}

/**
 * The sandbox payout rail. Each round moves every open withdrawal one step — requested →
 * processing, or processing → completed | failed (details.simulate == "fail") — each step in its
 * own transaction with one event (and a journal entry for completed/failed). A withdrawal moved
 * in this round waits for the next, so `processing` is observable and cancellable until then.
 * Paused while read-only or the `withdrawals` kill switch is on. A frozen agent's requested
 * withdrawal is not started (its money stays; it moves on once unfrozen); one already processing
 * finishes, the rail has it (a failure refunds it). Returns the steps taken.
 */
export async function processPayouts(deps: PayoutProcessorDeps): Promise<number> {
  const controls = await deps.controls.controls();
  if (controls.readOnly || controls.killSwitches.includes('withdrawals')) return 0;
  const roundStart = deps.clock();
  const waiting: string[] = [];
  let steps = 0;
  while (steps < MAX_PER_ROUND) {
    const outcome = await claimAndAct(
      deps.pool,
      (client) => claimNextOpenWithdrawal(client, roundStart, waiting),
      async (client, claimed) => {
        if (claimed.withdrawal.status === 'requested' && !(await mayStart(deps.agents, claimed.withdrawal.agentId))) {
          waiting.push(claimed.withdrawal.withdrawalId);
          return 'waiting' as const;
        }
        return (await deps.writer.applyIn(client, stepPlan(claimed.withdrawal, claimed.details, deps.clock()))).kind;
      },
    );
    if (outcome === undefined || outcome === 'blocked') break;
    if (outcome === 'applied') steps++;
  }
  if (steps > 0) deps.afterCommit();
  return steps;
}

/** A withdrawal leaves only for an agent identity says is not frozen now (unreachable: wait for the next round). */
async function mayStart(agents: Pick<AgentDirectory, 'current'>, agentId: string): Promise<boolean> {
  try {
    return !(await agents.current(agentId)).frozen;
  } catch {
    return false;
  }
}

function stepPlan(w: Withdrawal, details: Record<string, string>, now: Date): MutationPlan {
  const base = { now, control: 'withdrawals' as const, guard: { entity: 'withdrawal' as const, id: w.withdrawalId, status: w.status } };
  if (w.status === 'requested') {
    const after = movedWithdrawal(w, 'processing', now);
    return { ...base, writes: [{ table: 'withdrawals', value: after }], events: [payoutsEvents.withdrawal('processing', after, SYSTEM_CALLER)] };
  }
  const entryId = newId('jrn');
  const result = sandboxPayoutResult({ details });
  if (result.status === 'completed') {
    const after = movedWithdrawal(w, 'completed', now, { entryId });
    return {
      ...base,
      entry: { entryId, kind: 'withdrawal_complete', currency: w.currency, postings: withdrawalPayoutPostings(w.agentId, w.currency, w.amount) },
      writes: [{ table: 'withdrawals', value: after }],
      events: [payoutsEvents.withdrawal('completed', after, SYSTEM_CALLER)],
    };
  }
  const after = movedWithdrawal(w, 'failed', now, { entryId, failureReason: result.reason });
  return {
    ...base,
    // A failed withdrawal gives its amount back to the day's limit.
    counter: { key: withdrawalCounterKey(w.agentId, w.currency), day: utcDay(w.createdAt), expect: null, delta: -w.amount },
    entry: { entryId, kind: 'withdrawal_fail', currency: w.currency, postings: releasePostings(w.agentId, w.currency, w.amount) },
    writes: [{ table: 'withdrawals', value: after }],
    events: [payoutsEvents.withdrawal('failed', after, SYSTEM_CALLER)],
  };
}
