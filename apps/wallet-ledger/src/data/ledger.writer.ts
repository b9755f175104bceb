import type pg from 'pg';
import { formatAmount, type Logger } from '@exchange/platform';
import { isAgentKind } from '../domain/accounts';
import type { ApplyOutcome, LedgerWriter, MutationPlan } from '../domain/ledger.ports';
import { walletErrors } from '../domain/wallet.errors';
import { batchable, commitBatch, type BatchDeps } from './batch-apply';
import { GroupCommitter, type GroupCommitOptions } from './group-commit';
import { withRetries } from './retry';
import { APPLY, applyArguments, toOutcome, type ApplyRow } from './wallet-apply';

/**
 * wallet_apply() checks balances before writing, so the CHECK constraint (23514) is a backstop:
 * should it ever fire, the client still sees insufficient_funds, never an internal error.
 */
function checkViolation(plan: MutationPlan) {
  return (err: unknown): never => {
    if ((err as { code?: string }).code === '23514') {
      const debit = plan.entry?.postings.find((p) => p.amount < 0n && (isAgentKind(p.account.kind) || p.account.kind === 'merchant_settlement'));
      throw walletErrors.insufficientFunds(plan.entry?.currency ?? '', '0', debit ? formatAmount(-debit.amount) : '0');
    }
    throw err;
  };
}

const wroteEvents = (plan: MutationPlan, outcome: ApplyOutcome) => outcome.kind === 'applied' && (plan.events?.length ?? 0) > 0;

/**
 * Commits plans with one round trip: `SELECT wallet_apply(...)` in autocommit (so the whole
 * mutation is one transaction), retried on serialization failures and deadlocks. With group
 * commit on, concurrent batchable plans share one transaction (batch-apply.ts, README.md
 * "Group commit"); withCounter and applyIn never batch.
 */
export class PgLedgerWriter implements LedgerWriter {
  private readonly batcher: GroupCommitter<MutationPlan, ApplyOutcome> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly afterCommit: () => void = () => undefined,
    groupCommit?: GroupCommitOptions,
  ) {
    const deps = { pool, logger, applyAlone: (plan: MutationPlan) => this.applyAlone(plan) };
    this.batcher = groupCommit && new GroupCommitter(groupCommit, (plans) => this.commitGroup(deps, plans));
  }

  async apply(plan: MutationPlan): Promise<ApplyOutcome> {
    if (this.batcher && batchable(plan)) return this.batcher.submit(plan);
    const outcome = await this.applyAlone(plan);
    if (wroteEvents(plan, outcome)) this.afterCommit();
    return outcome;
  }

  private async commitGroup(deps: BatchDeps, plans: MutationPlan[]) {
    const settled = await commitBatch(deps, plans);
    // One relay kick per batch.
    if (settled.some((s, i) => 'value' in s && wroteEvents(plans[i], s.value))) this.afterCommit();
    return settled;
  }

  private async applyAlone(plan: MutationPlan): Promise<ApplyOutcome> {
    const values = applyArguments(plan);
    const result = await withRetries(
      () => this.pool.query<ApplyRow>({ ...APPLY, values }),
      (err, attempt) => this.logger.debug({ err: (err as Error).message, attempt }, 'wallet_apply retried'),
    ).catch(checkViolation(plan));
    return toOutcome(result.rows[0]);
  }

  async withCounter<T>(key: string, day: string, fn: (used: bigint, tx: Pick<LedgerWriter, 'apply'>) => Promise<T>): Promise<T> {
    let applied = false;
    const result = await withRetries(async () => {
      applied = false;
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        // A no-op DO UPDATE locks the row (and creates it the first time) in one statement.
        const { rows } = await client.query<{ used: string }>({
          name: 'wallet_lock_counter',
          text: `INSERT INTO daily_counters (counter_key, day, used) VALUES ($1, $2, 0)
                 ON CONFLICT (counter_key, day) DO UPDATE SET used = daily_counters.used RETURNING used`,
          values: [key, day],
        });
        const value = await fn(BigInt(rows[0].used), {
          apply: async (plan) => {
            const outcome = await this.applyIn(client, plan);
            if (wroteEvents(plan, outcome)) applied = true;
            return outcome;
          },
        });
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    });
    if (applied) this.afterCommit();
    return result;
  }

  /** Same as apply, on a client inside the caller's transaction (workers); no retries there. */
  async applyIn(client: pg.PoolClient, plan: MutationPlan): Promise<ApplyOutcome> {
    const result = await client.query<ApplyRow>({ ...APPLY, values: applyArguments(plan) }).catch(checkViolation(plan));
    return toOutcome(result.rows[0]);
  }
}
