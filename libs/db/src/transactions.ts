import type pg from 'pg';

// The transaction helpers of the raw-SQL services (market, registry, commerce): one way to run a
// transaction on a pooled connection and to recognise the PostgreSQL errors their repositories map.

/** A pool or a client inside a transaction: what a repository function queries. */
export type Queryable = pg.Pool | pg.PoolClient;

/** Runs `fn` in one transaction on a pooled connection (READ COMMITTED; rows are locked explicitly). */
export async function withTransaction<T>(pool: Pick<pg.Pool, 'connect'>, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection whose ROLLBACK failed is in an unknown state: it is discarded, not pooled.
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e;
    });
    throw err;
  } finally {
    client.release(broken ?? false);
  }
}

/** PostgreSQL unique_violation (23505), on the named constraint/index when given. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** PostgreSQL check_violation (23514), on the named constraint when given. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23514' && (constraint === undefined || e.constraint === constraint);
}

/** lock_timeout (55P03) expired while waiting for a row another transaction holds. */
export function isLockTimeout(err: unknown): boolean {
  return (err as { code?: string })?.code === '55P03';
}
