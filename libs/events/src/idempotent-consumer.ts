import type pg from 'pg';
import type { EventEnvelope } from './envelope';

/**
 * Wraps a handler so each event takes effect once per consumer: the (consumer, event_id) row
 * and the handler's writes (through `client`) commit in one transaction. A redelivered event
 * finds its row and is skipped; a failed handler rolls back both, so the retry runs it again.
 */
export function idempotentConsumer(
  pool: pg.Pool,
  consumer: string,
  handler: (event: EventEnvelope, client: pg.PoolClient) => Promise<void>,
): (event: EventEnvelope) => Promise<void> {
  return async (event) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const claimed = await client.query(
        'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [consumer, event.id],
      );
      if (claimed.rowCount === 0) {
        await client.query('ROLLBACK');
        return;
      }
      await handler(event, client);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
      throw err;
    } finally {
      client.release(broken ?? false);
    }
  };
}
