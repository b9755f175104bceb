import pg from 'pg';
import type { Logger } from '@exchange/platform';
import type { ApplyOutcome, MutationPlan } from '../domain/ledger.ports';
import type { Settled } from './group-commit';
import { withRetries } from './retry';
import { applyArguments, toOutcome, type ApplyRow } from './wallet-apply';

const APPLY_BATCH = {
  name: 'wallet_apply_batch',
  text: `SELECT o_outcome, o_detail, o_fingerprint, o_response, o_error FROM wallet_apply_batch($1::jsonb)`,
};

/**
 * Plans that may share a transaction: those without an entity guard or a daily counter. Those
 * lock their entity/counter row before any account, so in a batch (which locks all its accounts
 * first) they could wait in the opposite order to a single plan; they commit alone, as before.
 */
export function batchable(plan: MutationPlan): boolean {
  return plan.guard === undefined && plan.counter === undefined;
}

export interface BatchDeps {
  pool: pg.Pool;
  logger: Logger;
  /** The single-plan path (its own transaction, retries and 23514 mapping). */
  applyAlone: (plan: MutationPlan) => Promise<ApplyOutcome>;
}

const settle = async (work: Promise<ApplyOutcome>): Promise<Settled<ApplyOutcome>> => {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
};

/**
 * wallet_apply_batch() answered a number of rows other than one per plan (a bug in the function):
 * no row can be matched to its plan, so the plans run one by one; each meets what the batch may
 * have committed (its idempotency key, the journal's entry_id key), as after an unclear commit.
 * A backstop only: the function itself raises (21000, nothing committed) when a slow plan's
 * wallet_apply() call returns other than one row, and answers one row per decided plan.
 */
class BatchRowsMismatch extends Error {
  constructor(rows: number, plans: number) {
    super(`wallet_apply_batch returned ${rows} rows for ${plans} plans`);
  }
}

/**
 * Commits plans in one transaction and one round trip (wallet_apply_batch, in order), retried on
 * serialization failures and deadlocks like a single plan. If PostgreSQL raises anything else
 * (a CHECK backstop, a unique violation, retries used up, the server ending the session), nothing
 * of the batch committed: its plans run again one by one, in order, through the single path, so
 * each caller gets exactly what it would have got alone and the innocent plans still commit. A
 * connection lost below PostgreSQL (a socket error, not a DatabaseError) fails every caller, as it
 * would have failed each alone; a plan run again after an unclear commit meets its own idempotency
 * key and the journal's entry_id key.
 */
export async function commitBatch(deps: BatchDeps, plans: MutationPlan[]): Promise<Array<Settled<ApplyOutcome>>> {
  if (plans.length === 1) return [await settle(deps.applyAlone(plans[0]))];
  const values = [JSON.stringify(plans.map((p) => applyArguments(p, (v) => v)))];
  let rows: ApplyRow[];
  try {
    const result = await withRetries(
      () => deps.pool.query<ApplyRow>({ ...APPLY_BATCH, values }),
      (err, attempt) => deps.logger.debug({ err: (err as Error).message, attempt, plans: plans.length }, 'wallet_apply_batch retried'),
    );
    rows = result.rows;
    if (rows.length !== plans.length) throw new BatchRowsMismatch(rows.length, plans.length);
  } catch (err) {
    if (!(err instanceof pg.DatabaseError) && !(err instanceof BatchRowsMismatch)) throw err;
    if (err instanceof BatchRowsMismatch) {
      // A bug in the function (SQL checks its own row counts): the batch committed, so it is not a rollback.
      deps.logger.error({ err: err.message, plans: plans.length }, 'wallet_apply_batch answered the wrong number of rows (committed): its plans run one by one');
    } else {
      deps.logger.debug({ err: err.message, code: err.code, plans: plans.length }, 'wallet_apply_batch rolled back: its plans run one by one');
    }
    const settled: Array<Settled<ApplyOutcome>> = [];
    for (const plan of plans) settled.push(await settle(deps.applyAlone(plan)));
    return settled;
  }
  return rows.map((row) => {
    try {
      return { value: toOutcome(row) };
    } catch (error) {
      return { error };
    }
  });
}
