import type pg from 'pg';
import { enqueueEvent, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import type { Controls } from '../domain/controls';

/** Persists the controls row and its controls.changed event in one transaction. */
export async function storeControls(pool: pg.Pool, controls: Controls, reason: string, now: Date, event: EventEnvelope): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE controls SET read_only = $1, kill_switches = $2, reason = $3, updated_at = $4 WHERE id = 1', [
      controls.readOnly,
      controls.killSwitches,
      reason,
      now,
    ]);
    await enqueueEvent(pgSqlExecutor(client), event);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
