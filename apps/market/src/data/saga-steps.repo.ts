import type { SagaKind, SagaStatus, SagaStep } from '../domain/model';
import type { Queryable, Row } from './repo-kit';

// The saga_steps table: the wallet steps the executor (src/saga) runs and recovery resumes.

const toStep = (r: Row): SagaStep => ({
  stepId: r.step_id,
  contractId: r.contract_id,
  kind: r.kind,
  status: r.status,
  params: r.params,
  walletKey: r.wallet_key,
  attempts: r.attempts,
  lastError: r.last_error,
  lastFailureDefinite: r.last_failure_definite === true,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertStep(db: Queryable, s: SagaStep): Promise<void> {
  await db.query(
    `INSERT INTO saga_steps (step_id, contract_id, kind, status, params, wallet_key, attempts, last_error, last_failure_definite, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
    [s.stepId, s.contractId, s.kind, s.status, JSON.stringify(s.params), s.walletKey, s.attempts, s.lastError, s.lastFailureDefinite, s.createdAt, s.updatedAt],
  );
}

export async function getStep(db: Queryable, stepId: string): Promise<SagaStep | null> {
  const { rows } = await db.query('SELECT * FROM saga_steps WHERE step_id = $1', [stepId]);
  return rows[0] ? toStep(rows[0]) : null;
}

/** `lastFailureDefinite`: the run that set `lastError` got a definite refusal (false when none or indefinite). */
export async function updateStep(
  db: Queryable,
  stepId: string,
  status: SagaStatus,
  attempts: number,
  lastError: string | null,
  lastFailureDefinite: boolean,
  now: Date,
): Promise<void> {
  await db.query('UPDATE saga_steps SET status = $2, attempts = $3, last_error = $4, last_failure_definite = $5, updated_at = $6 WHERE step_id = $1', [
    stepId, status, attempts, lastError, lastFailureDefinite, now,
  ]);
}

export async function pendingSteps(db: Queryable, contractId: string): Promise<SagaStep[]> {
  const { rows } = await db.query(`SELECT * FROM saga_steps WHERE contract_id = $1 AND status = 'pending' ORDER BY created_at, step_id`, [contractId]);
  return rows.map(toStep);
}

export async function hasPendingStep(db: Queryable, contractId: string, kind: SagaKind): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM saga_steps WHERE contract_id = $1 AND kind = $2 AND status = 'pending' LIMIT 1`, [contractId, kind]);
  return rows.length > 0;
}

/** Contracts with pending steps created before `olderThan` (all when null), oldest first. */
export async function contractsWithPendingSteps(db: Queryable, olderThan: Date | null, limit: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT contract_id, min(created_at) AS first FROM saga_steps
      WHERE status = 'pending' AND ($1::timestamptz IS NULL OR created_at < $1)
      GROUP BY contract_id ORDER BY first LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map((r) => r.contract_id as string);
}
