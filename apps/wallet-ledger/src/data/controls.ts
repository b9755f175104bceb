import type pg from 'pg';

/**
 * Whether read-only mode is on, as the controls row says now. Metering, billing and the proxy read
 * it inside their write transaction (their writes do not go through wallet_apply, which checks it
 * itself).
 */
export async function readOnlyNow(db: Pick<pg.ClientBase, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ read_only: boolean }>('SELECT read_only FROM controls WHERE id = 1');
  return rows[0]?.read_only ?? false;
}
