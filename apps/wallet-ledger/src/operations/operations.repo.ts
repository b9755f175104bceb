import type pg from 'pg';
import { enqueueEvent, pgSqlExecutor, type EventEnvelope } from '@exchange/events';
import type { Controls, KillSwitch } from '../domain/controls';

/** The controls row (id = 1): read by every mutation's store call and the workers, written here. */
export class OperationsRepo {
  constructor(private readonly pool: pg.Pool) {}

  async controls(): Promise<Controls> {
    const { rows } = await this.pool.query<{ read_only: boolean; kill_switches: string[] }>(
      'SELECT read_only, kill_switches FROM controls WHERE id = 1',
    );
    return { readOnly: rows[0]?.read_only ?? false, killSwitches: (rows[0]?.kill_switches ?? []) as KillSwitch[] };
  }

  /** Persists the controls row and its controls.changed event in one transaction. */
  async storeControls(controls: Controls, reason: string, now: Date, event: EventEnvelope): Promise<void> {
    const client = await this.pool.connect();
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
}
