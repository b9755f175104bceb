import type pg from 'pg';

/**
 * One worker step in its own transaction: `claim` locks the next row (FOR UPDATE SKIP LOCKED, so
 * replicas never take the same one) and `act` moves it. Returns what `act` returned, or
 * undefined when there was nothing to claim.
 */
export async function claimAndAct<Row, Result>(
  pool: pg.Pool,
  claim: (client: pg.PoolClient) => Promise<Row | undefined>,
  act: (client: pg.PoolClient, row: Row) => Promise<Result>,
): Promise<Result | undefined> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const row = await claim(client);
    const result = row === undefined ? undefined : await act(client, row);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
