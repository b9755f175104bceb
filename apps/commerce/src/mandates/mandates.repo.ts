import type { CursorKey } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { Autonomy, AutonomyMode, MandateRecord, MandateStatus } from './mandate.model';
import type { MandateSignedPayload } from './mandate-signing';

// The mandates table. Amounts are BIGINT micro-units (pg returns them as strings); `expired` and a
// spend-reached `exhausted` are derived when read (mandate-rules.ts effectiveStatus), so the list
// filter below derives them the same way in SQL.

const COLUMNS = `mandate_id, signer_agent_id, agent_id, scope_merchants, scope_categories, scope_skus, per_transaction,
  total_limit, currency, expires_at, signature, status, spent, reserved, autonomy_mode, step_up_amount, step_up_currency,
  approval_for_new_merchants, daily_limit, created_at, updated_at`;

/* eslint-disable @typescript-eslint/no-explicit-any -- pg rows are untyped */
function toRecord(r: any): MandateRecord {
  return {
    mandateId: r.mandate_id,
    signerAgentId: r.signer_agent_id,
    agentId: r.agent_id,
    scope: { merchants: r.scope_merchants ?? [], categories: r.scope_categories ?? [], skus: r.scope_skus ?? [] },
    limits: { perTransaction: BigInt(r.per_transaction), total: BigInt(r.total_limit), currency: r.currency },
    expiresAt: r.expires_at,
    signature: r.signature,
    status: r.status,
    spent: BigInt(r.spent),
    reserved: BigInt(r.reserved),
    autonomy: {
      mode: r.autonomy_mode as AutonomyMode,
      stepUpThreshold: r.step_up_amount === null ? null : { amount: BigInt(r.step_up_amount), currency: r.step_up_currency },
      approvalForNewMerchants: r.approval_for_new_merchants,
      dailyLimit: r.daily_limit === null ? null : BigInt(r.daily_limit),
    },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const autonomyParams = (a: Autonomy) => [
  a.mode,
  a.stepUpThreshold?.amount.toString() ?? null,
  a.stepUpThreshold?.currency ?? null,
  a.approvalForNewMerchants,
  a.dailyLimit?.toString() ?? null,
];

export async function insertMandate(db: Queryable, m: MandateRecord, signedPayload: MandateSignedPayload): Promise<void> {
  await db.query(
    `INSERT INTO mandates (mandate_id, signer_agent_id, agent_id, scope_merchants, scope_categories, scope_skus, per_transaction,
       total_limit, currency, expires_at, signature, signed_payload, status, spent, reserved, autonomy_mode, step_up_amount,
       step_up_currency, approval_for_new_merchants, daily_limit, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)`,
    [
      m.mandateId, m.signerAgentId, m.agentId, m.scope.merchants, m.scope.categories, m.scope.skus, m.limits.perTransaction.toString(),
      m.limits.total.toString(), m.limits.currency, m.expiresAt, m.signature, JSON.stringify(signedPayload), m.status,
      m.spent.toString(), m.reserved.toString(), ...autonomyParams(m.autonomy), m.createdAt, m.updatedAt,
    ],
  );
}

/** One mandate; `forUpdate` locks its row until the caller's transaction ends (pass that transaction's client). */
export async function getMandate(db: Queryable, mandateId: string, opts: { forUpdate?: boolean } = {}): Promise<MandateRecord | null> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM mandates WHERE mandate_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`, [mandateId]);
  return rows.length === 0 ? null : toRecord(rows[0]);
}

/** Replaces the autonomy settings; the updated mandate. */
export async function updateAutonomy(db: Queryable, mandateId: string, autonomy: Autonomy, now: Date): Promise<MandateRecord> {
  const { rows } = await db.query(
    `UPDATE mandates SET autonomy_mode = $2, step_up_amount = $3, step_up_currency = $4, approval_for_new_merchants = $5, daily_limit = $6,
       updated_at = $7
     WHERE mandate_id = $1 RETURNING ${COLUMNS}`,
    [mandateId, ...autonomyParams(autonomy), now],
  );
  return toRecord(rows[0]);
}

export async function updateStatus(db: Queryable, mandateId: string, status: Exclude<MandateRecord['status'], 'exhausted'>, now: Date): Promise<MandateRecord> {
  const { rows } = await db.query(`UPDATE mandates SET status = $2, updated_at = $3 WHERE mandate_id = $1 RETURNING ${COLUMNS}`, [mandateId, status, now]);
  return toRecord(rows[0]);
}

export interface MandateListQuery {
  /** Only mandates this agent signed or was granted; null = every mandate (operator). */
  partyAgentId: string | null;
  signerAgentId?: string;
  status?: MandateStatus;
  now: Date;
  after?: CursorKey;
  /** Rows to fetch (the page size + 1: toPage's look-ahead). */
  fetch: number;
}

/**
 * The SQL of an effective status (same precedence as effectiveStatus). `now()` adds the time as a
 * parameter: called only where used, since PostgreSQL refuses a parameter no clause references.
 */
const STATUS_SQL: Record<MandateStatus, (now: () => string) => string> = {
  revoked: () => `status = 'revoked'`,
  exhausted: () => `(status = 'exhausted' OR (status IN ('active', 'paused') AND spent >= total_limit))`,
  expired: (now) => `(status IN ('active', 'paused') AND spent < total_limit AND expires_at <= ${now()})`,
  active: (now) => `(status = 'active' AND spent < total_limit AND expires_at > ${now()})`,
  paused: (now) => `(status = 'paused' AND spent < total_limit AND expires_at > ${now()})`,
};

/** Newest first (created_at DESC, mandate_id DESC), after the cursor's row. */
export async function listMandates(db: Queryable, q: MandateListQuery): Promise<MandateRecord[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (q.partyAgentId !== null) {
    const p = param(q.partyAgentId);
    where.push(`(signer_agent_id = ${p} OR agent_id = ${p})`);
  }
  if (q.signerAgentId !== undefined) where.push(`signer_agent_id = ${param(q.signerAgentId)}`);
  if (q.status !== undefined) where.push(STATUS_SQL[q.status](() => param(q.now)));
  if (q.after !== undefined) where.push(`(created_at, mandate_id) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM mandates ${filter} ORDER BY created_at DESC, mandate_id DESC LIMIT ${param(q.fetch)}`,
    params,
  );
  return rows.map(toRecord);
}
