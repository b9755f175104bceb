import type pg from 'pg';
import { formatAmount, type Logger } from '@exchange/platform';
import { accountId, isAgentKind } from '../domain/accounts';
import type { ApplyOutcome, LedgerWriter, MutationPlan } from '../domain/ledger.ports';
import { walletErrors, type StoredError } from '../domain/wallet.errors';
import { entityRow } from './entity-rows';
import { withRetries } from './retry';

const APPLY = {
  // A named statement: parsed and planned once per connection.
  name: 'wallet_apply',
  text: `SELECT o_outcome, o_detail, o_fingerprint, o_response, o_error
           FROM wallet_apply($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
};

interface ApplyRow {
  o_outcome: string;
  o_detail: string | null;
  o_fingerprint: string | null;
  o_response: unknown;
  o_error: StoredError | null;
}

/** Builds wallet_apply()'s 24 arguments from a plan (see the function's migration). */
export function applyArguments(plan: MutationPlan): unknown[] {
  const postings = plan.entry?.postings ?? [];
  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  return [
    plan.control ?? null,
    plan.idempotency?.scope ?? null,
    plan.idempotency?.key ?? null,
    plan.idempotency?.fingerprint ?? null,
    plan.idempotency?.operation ?? null,
    json(plan.error),
    plan.guard?.entity ?? null,
    plan.guard?.id ?? null,
    plan.guard?.status ?? null,
    plan.counter?.key ?? null,
    plan.counter?.day ?? null,
    plan.counter?.expect === null || plan.counter === undefined ? null : plan.counter.expect.toString(),
    plan.counter ? plan.counter.delta.toString() : '0',
    plan.entry?.entryId ?? null,
    plan.entry?.kind ?? null,
    plan.entry?.currency ?? null,
    postings.map((p) => accountId(p.account)),
    postings.map((p) => p.account.owner),
    postings.map((p) => p.account.kind),
    postings.map((p) => p.amount.toString()),
    JSON.stringify((plan.writes ?? []).map(entityRow)),
    JSON.stringify(plan.events ?? []),
    json(plan.response),
    plan.now.toISOString(),
  ];
}

function toOutcome(row: ApplyRow): ApplyOutcome {
  switch (row.o_outcome) {
    case 'applied':
      return { kind: 'applied' };
    case 'recorded':
      return { kind: 'recorded' };
    case 'replayed':
      return { kind: 'replayed', fingerprint: row.o_fingerprint ?? '', response: row.o_response, error: row.o_error };
    case 'blocked':
      return { kind: 'blocked', reason: row.o_detail as 'read_only' };
    case 'guard_failed':
      return { kind: 'guard_failed', current: row.o_detail };
    case 'counter_stale':
      return { kind: 'counter_stale', current: BigInt(row.o_detail ?? '0') };
    case 'insufficient':
      return { kind: 'insufficient', balance: BigInt(row.o_detail ?? '0') };
    default:
      throw new Error(`wallet_apply returned an unknown outcome ${row.o_outcome}`);
  }
}

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

/**
 * Commits plans with one round trip: `SELECT wallet_apply(...)` in autocommit (so the whole
 * mutation is one transaction), retried on serialization failures and deadlocks.
 */
export class PgLedgerWriter implements LedgerWriter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly afterCommit: () => void = () => undefined,
  ) {}

  async apply(plan: MutationPlan): Promise<ApplyOutcome> {
    const values = applyArguments(plan);
    const result = await withRetries(
      () => this.pool.query<ApplyRow>({ ...APPLY, values }),
      (err, attempt) => this.logger.debug({ err: (err as Error).message, attempt }, 'wallet_apply retried'),
    ).catch(checkViolation(plan));
    const outcome = toOutcome(result.rows[0]);
    if (outcome.kind === 'applied' && (plan.events?.length ?? 0) > 0) this.afterCommit();
    return outcome;
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
            if (outcome.kind === 'applied' && (plan.events?.length ?? 0) > 0) applied = true;
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
