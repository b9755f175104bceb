import type pg from 'pg';
import { isUniqueViolation, withTransaction } from '@exchange/db';
import { enqueueEvent, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import { big, date, str, strOrNull, type Row } from '../data/rows';
import type { HoldBudgetSource } from './budget';
import type { BudgetKey, BudgetKind, ProxyCall } from './proxy-call';
import { readOnlyNow } from '../data/controls';

/** A budget row as stored: who it belongs to, its currency, and what recorded calls spent. */
export interface BudgetState {
  agentId: string;
  currency: string;
  spent: bigint;
  calls: bigint;
}

/** The insert lost to a concurrent call with the same (agent, idempotency key): the transaction is rolled back. */
export class DuplicateProxyCallKey extends Error {
  constructor() {
    super('proxy call idempotency key already recorded');
  }
}

const IDEMPOTENCY_INDEX = 'proxy_calls_agent_idempotency_key';

function callFromRow(r: Row): ProxyCall {
  return {
    callId: str(r['call_id']),
    agentId: str(r['agent_id']),
    runId: str(r['run_id']),
    upstream: str(r['upstream']),
    operation: str(r['operation']),
    cost: big(r['cost']),
    currency: str(r['currency']),
    requestSha256: str(r['request_sha256']),
    responseSha256: str(r['response_sha256']),
    status: Number(r['status']),
    latencyMs: Number(r['latency_ms']),
    budgetKind: str(r['budget_kind']) as BudgetKind,
    budgetRef: str(r['budget_ref']),
    idempotencyKey: strOrNull(r['idempotency_key']),
    recordedAt: date(r['recorded_at']),
  };
}

const budgetFromRow = (r: Row): BudgetState => ({ agentId: str(r['agent_id']), currency: str(r['currency']), spent: big(r['spent']), calls: big(r['calls']) });

const holdFromRow = (r: Row): HoldBudgetSource => ({
  holdId: str(r['hold_id']),
  agentId: str(r['agent_id']),
  amount: big(r['amount']),
  currency: str(r['currency']),
  status: str(r['status']),
  expiresAt: (r['expires_at'] as Date | null) ?? null,
  controller: str(r['controller']),
});

const HOLD_COLUMNS = 'hold_id, agent_id, amount, currency, status, expires_at, controller';
const LOCK_BUDGET = 'SELECT agent_id, currency, spent, calls FROM proxy_budgets WHERE budget_kind = $1 AND budget_ref = $2 FOR UPDATE';

/** A call recorded under an idempotency key, with the fingerprint of its request. */
export interface KeyedCall {
  call: ProxyCall;
  fingerprint: string;
}

async function keyedCall(q: Pick<pg.ClientBase, 'query'>, agentId: string, key: string): Promise<KeyedCall | undefined> {
  const { rows } = await q.query('SELECT * FROM proxy_calls WHERE agent_id = $1 AND idempotency_key = $2', [agentId, key]);
  return rows[0] ? { call: callFromRow(rows[0]), fingerprint: str(rows[0]['fingerprint']) } : undefined;
}

/**
 * One RecordProxyCall's transaction. Lock order is always the budget row, then the hold row
 * (FOR SHARE); wallet_apply locks holds but never budget rows, so the two cannot deadlock. The
 * budget row lock is what serialises concurrent calls against one budget.
 */
export class ProxyTx {
  constructor(private readonly client: pg.PoolClient) {}

  readOnly(): Promise<boolean> {
    return readOnlyNow(this.client);
  }

  /** Creates the hold's budget row (owner and currency copied from the hold) if needed, and locks it; undefined for an unknown hold. */
  async lockHoldBudget(holdId: string): Promise<BudgetState | undefined> {
    await this.client.query(
      `INSERT INTO proxy_budgets (budget_kind, budget_ref, agent_id, currency)
       SELECT 'hold', hold_id, agent_id, currency FROM holds WHERE hold_id = $1
       ON CONFLICT DO NOTHING`,
      [holdId],
    );
    const { rows } = await this.client.query(LOCK_BUDGET, ['hold', holdId]);
    return rows[0] ? budgetFromRow(rows[0]) : undefined;
  }

  /** Creates the mandate's budget row if needed, and locks it. */
  async lockMandateBudget(mandateId: string, agentId: string, currency: string): Promise<BudgetState> {
    await this.client.query(
      `INSERT INTO proxy_budgets (budget_kind, budget_ref, agent_id, currency) VALUES ('mandate', $1, $2, $3) ON CONFLICT DO NOTHING`,
      [mandateId, agentId, currency],
    );
    const { rows } = await this.client.query(LOCK_BUDGET, ['mandate', mandateId]);
    return budgetFromRow(rows[0]);
  }

  /** The hold, share-locked: it cannot be released or consumed until this call is recorded or refused. */
  async holdForShare(holdId: string): Promise<HoldBudgetSource | undefined> {
    const { rows } = await this.client.query(`SELECT ${HOLD_COLUMNS} FROM holds WHERE hold_id = $1 FOR SHARE`, [holdId]);
    return rows[0] ? holdFromRow(rows[0]) : undefined;
  }

  keyedCall(agentId: string, key: string): Promise<KeyedCall | undefined> {
    return keyedCall(this.client, agentId, key);
  }

  /** The call, the budget's new totals and the event, in this transaction. */
  async record(call: ProxyCall, fingerprint: string, budget: BudgetKey & Pick<BudgetState, 'spent' | 'calls'>, event: EventEnvelope): Promise<void> {
    try {
      await this.client.query(
        `INSERT INTO proxy_calls (call_id, agent_id, run_id, upstream, operation, cost, currency, request_sha256, response_sha256,
                                  status, latency_ms, budget_kind, budget_ref, idempotency_key, fingerprint, recorded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [
          call.callId, call.agentId, call.runId, call.upstream, call.operation, call.cost.toString(), call.currency, call.requestSha256,
          call.responseSha256, call.status, call.latencyMs, call.budgetKind, call.budgetRef, call.idempotencyKey, fingerprint, call.recordedAt,
        ],
      );
    } catch (err) {
      if (isUniqueViolation(err, IDEMPOTENCY_INDEX)) throw new DuplicateProxyCallKey();
      throw err;
    }
    await this.client.query('UPDATE proxy_budgets SET spent = $3, calls = $4 WHERE budget_kind = $1 AND budget_ref = $2', [
      budget.kind,
      budget.ref,
      budget.spent.toString(),
      budget.calls.toString(),
    ]);
    await enqueueEvent(pgSqlExecutor(this.client), event);
  }
}

/** Proxy calls and their budgets (RecordProxyCall, ExportProxyCasefile; metrics: proxy-metrics.repo.ts). */
export class ProxyRepo {
  constructor(private readonly pool: pg.Pool) {}

  /** Runs `fn` in one transaction (rolled back when it throws). */
  transaction<T>(fn: (tx: ProxyTx) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, (client) => fn(new ProxyTx(client)));
  }

  /** The call an agent recorded with this idempotency key. */
  keyedCall(agentId: string, key: string): Promise<KeyedCall | undefined> {
    return keyedCall(this.pool, agentId, key);
  }

  async budget(key: BudgetKey): Promise<BudgetState | undefined> {
    const { rows } = await this.pool.query('SELECT agent_id, currency, spent, calls FROM proxy_budgets WHERE budget_kind = $1 AND budget_ref = $2', [
      key.kind,
      key.ref,
    ]);
    return rows[0] ? budgetFromRow(rows[0]) : undefined;
  }

  async hold(holdId: string): Promise<HoldBudgetSource | undefined> {
    const { rows } = await this.pool.query(`SELECT ${HOLD_COLUMNS} FROM holds WHERE hold_id = $1`, [holdId]);
    return rows[0] ? holdFromRow(rows[0]) : undefined;
  }

  /** An agent's calls of one run, in (recorded_at, call_id) order. */
  /** The run's calls in recorded order, at most `limit` of them. */
  async runCalls(agentId: string, runId: string, limit: number): Promise<ProxyCall[]> {
    const { rows } = await this.pool.query(
      'SELECT * FROM proxy_calls WHERE agent_id = $1 AND run_id = $2 ORDER BY recorded_at, call_id LIMIT $3',
      [agentId, runId, limit],
    );
    return rows.map(callFromRow);
  }
}
