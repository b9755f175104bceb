import type pg from 'pg';

/**
 * Serialises everything that decides what one agent's billing period contains: meter ingest for
 * the period and the emit that closes it take this lock in their transaction, so no event slips in
 * between emit's recomputation and the receipt (README.md "Metering, billing, gateway proxy").
 */
export async function lockBillingPeriod(client: Pick<pg.PoolClient, 'query'>, agentId: string, period: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`billing-period:${agentId}:${period}`]);
}

/** Serialises epoch table creation (the no-overlap check reads, then inserts). */
export async function lockEpochTables(client: Pick<pg.PoolClient, 'query'>): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['meter-epoch-tables']);
}
