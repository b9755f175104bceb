import type pg from 'pg';
import type { Queryable } from '@exchange/db';
import type { CheckoutSessionRecord } from '../checkout/session.model';
import { reasonOf, type LifecycleKind, type LifecycleRow } from './lifecycle.model';

// The session_lifecycle table: append-only, seq 1, 2, … per session. The writer runs inside the
// transaction of the change and locks the session row first, so two changes of one session take
// seqs one after the other (max + 1 is safe under that lock).

/** Appends the session's state after `kind` (call inside the change's transaction). */
export async function appendLifecycle(db: pg.ClientBase, kind: LifecycleKind, s: CheckoutSessionRecord, actor: string | null): Promise<void> {
  await db.query('SELECT 1 FROM checkout_sessions WHERE commerce_session_id = $1 FOR UPDATE', [s.commerceSessionId]);
  await db.query(
    `INSERT INTO session_lifecycle (commerce_session_id, seq, kind, status, approval, payment_stage, total, currency, reason, actor, at)
     SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM session_lifecycle WHERE commerce_session_id = $1`,
    [s.commerceSessionId, kind, s.status, s.approval, s.paymentStage, s.total.toString(), s.currency, reasonOf(kind, s), actor, s.updatedAt],
  );
}

interface Row {
  commerce_session_id: string;
  seq: number;
  kind: string;
  status: LifecycleRow['status'];
  approval: LifecycleRow['approval'];
  payment_stage: LifecycleRow['paymentStage'];
  total: string;
  currency: string;
  reason: string | null;
  actor: string | null;
  at: Date;
}

const toRow = (r: Row): LifecycleRow => ({
  commerceSessionId: r.commerce_session_id,
  seq: r.seq,
  kind: r.kind,
  status: r.status,
  approval: r.approval,
  paymentStage: r.payment_stage,
  total: BigInt(r.total),
  currency: r.currency,
  reason: r.reason,
  actor: r.actor,
  at: r.at,
});

/** The session's lifecycle in seq order. */
export async function listLifecycle(db: Queryable, sessionId: string): Promise<LifecycleRow[]> {
  const { rows } = await db.query<Row>(
    `SELECT commerce_session_id, seq, kind, status, approval, payment_stage, total::text, currency, reason, actor, at
       FROM session_lifecycle WHERE commerce_session_id = $1 ORDER BY seq`,
    [sessionId],
  );
  return rows.map(toRow);
}
