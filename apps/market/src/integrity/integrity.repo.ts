import { encodeCursor, type CursorKey } from '@exchange/platform';
import type { Queryable } from '@exchange/db';
import type { Contract } from '../domain/model';
import { isIntegrityState, KILL_SWITCHES, type Integrity, type KillSwitchName, type IntegrityStateName } from './integrity-states';

// Raw pg access to integrity_state (one row, id 1), kill_switches (absent = disabled) and
// integrity_audit. Money and contract rows stay in src/contracts/contracts.repo.ts.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

export interface AuditEntry {
  auditId: string;
  action: string;
  operator: string;
  reason: string;
  subject: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** The row is created by the migration; this insert only matters if someone deleted it. */
async function ensureRow(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO integrity_state (id, state, since, wallet_controls_version, wallet_synced_version)
     VALUES (1, 'normal', now(), 0, 0) ON CONFLICT (id) DO NOTHING`,
  );
}

/** The whole snapshot; `lock` takes the state row FOR UPDATE (every change serializes on it). */
export async function readIntegrity(db: Queryable, opts: { lock?: boolean } = {}): Promise<Integrity> {
  const select = `SELECT * FROM integrity_state WHERE id = 1${opts.lock ? ' FOR UPDATE' : ''}`;
  let { rows } = await db.query(select);
  if (rows.length === 0) {
    await ensureRow(db);
    ({ rows } = await db.query(select));
  }
  const s: Row = rows[0];
  const { rows: switchRows } = await db.query('SELECT * FROM kill_switches');
  const byName = new Map<string, Row>(switchRows.map((r: Row) => [r.name, r]));
  const state: IntegrityStateName = isIntegrityState(s.state) ? s.state : 'normal';
  return {
    state,
    since: s.since,
    reason: s.reason ?? null,
    setBy: s.set_by ?? null,
    killSwitches: KILL_SWITCHES.map((name) => {
      const r = byName.get(name);
      return { name, enabled: r?.enabled ?? false, reason: r?.reason ?? null, setBy: r?.set_by ?? null, updatedAt: r?.updated_at ?? null };
    }),
    walletControlsVersion: s.wallet_controls_version,
    walletSyncedVersion: s.wallet_synced_version,
  };
}

/** The gate's read: state and enabled switches in one round trip (one PK row + six at most). */
export async function readGate(db: Queryable): Promise<Pick<Integrity, 'state' | 'killSwitches'>> {
  const { rows } = await db.query(
    `SELECT (SELECT state FROM integrity_state WHERE id = 1) AS state,
            coalesce((SELECT array_agg(name) FROM kill_switches WHERE enabled), '{}') AS enabled`,
  );
  const state: IntegrityStateName = isIntegrityState(rows[0]?.state ?? '') ? rows[0].state : 'normal';
  const enabled: string[] = rows[0]?.enabled ?? [];
  return {
    state,
    killSwitches: KILL_SWITCHES.map((name) => ({ name, enabled: enabled.includes(name), reason: null, setBy: null, updatedAt: null })),
  };
}

/** A new state; the wallet controls version moves on with every change. */
export async function saveState(db: Queryable, state: IntegrityStateName, reason: string, setBy: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE integrity_state SET state = $1, since = $2, reason = $3, set_by = $4,
       wallet_controls_version = wallet_controls_version + 1 WHERE id = 1`,
    [state, now, reason, setBy],
  );
}

export async function saveKillSwitch(db: Queryable, name: KillSwitchName, enabled: boolean, reason: string, setBy: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO kill_switches (name, enabled, reason, set_by, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (name) DO UPDATE SET enabled = EXCLUDED.enabled, reason = EXCLUDED.reason, set_by = EXCLUDED.set_by, updated_at = EXCLUDED.updated_at`,
    [name, enabled, reason, setBy, now],
  );
  await db.query('UPDATE integrity_state SET wallet_controls_version = wallet_controls_version + 1 WHERE id = 1');
}

/** wallet-ledger acknowledged the controls of `version` (never moves backwards). */
export async function markWalletSynced(db: Queryable, version: number): Promise<void> {
  await db.query('UPDATE integrity_state SET wallet_synced_version = GREATEST(wallet_synced_version, $1) WHERE id = 1', [version]);
}

export async function insertAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    'INSERT INTO integrity_audit (id, action, operator, reason, subject, details, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [e.auditId, e.action, e.operator, e.reason, e.subject, JSON.stringify(e.details), e.createdAt],
  );
}

/** Newest first, keyset paged on (created_at, id). */
export async function listAudit(
  db: Queryable,
  filter: { action?: string },
  q: { limit: number; after: CursorKey | null },
): Promise<{ data: AuditEntry[]; nextCursor: string | null }> {
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (filter.action !== undefined) where.push(`action = ${param(filter.action)}`);
  if (q.after) where.push(`(created_at, id) < (${param(q.after.createdAt)}, ${param(q.after.id)})`);
  const sql = `SELECT * FROM integrity_audit${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
               ORDER BY created_at DESC, id DESC LIMIT ${param(q.limit + 1)}`;
  const { rows } = await db.query(sql, values);
  const toEntry = (r: Row): AuditEntry => ({
    auditId: r.id,
    action: r.action,
    operator: r.operator,
    reason: r.reason,
    subject: r.subject,
    details: r.details,
    createdAt: r.created_at,
  });
  if (rows.length <= q.limit) return { data: rows.map(toEntry), nextCursor: null };
  const kept = rows.slice(0, q.limit);
  const last = kept[kept.length - 1];
  return { data: kept.map(toEntry), nextCursor: encodeCursor({ createdAt: last.created_at, id: last.id }) };
}

/** The correction columns (saveContract writes the rest of the contract). */
export async function saveCorrection(db: Queryable, c: Contract): Promise<void> {
  await db.query('UPDATE contracts SET corrected_at = $2, correction_receipt_id = $3, correction_reason = $4 WHERE id = $1', [
    c.contractId,
    c.correctedAt,
    c.correctionReceiptId,
    c.correctionReason,
  ]);
}
