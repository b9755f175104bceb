import pg from 'pg';

// Baseline (c): the same two-account transfer as raw SQL with `pg`, on wallet-ledger's own
// database (its own two tables, so the service's data is untouched): lock both rows in id order,
// two UPDATEs, one journal INSERT, one transaction — the physical floor of a ledger transfer.

export interface SqlTransfers {
  transfer(from: number, to: number): Promise<void>;
  /** Sum of every balance: must not change (money conserved). */
  total(): Promise<bigint>;
  close(): Promise<void>;
}

export async function setupSqlTransfers(databaseUrl: string, accounts: number, poolMax: number): Promise<SqlTransfers> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax, application_name: 'bench-ledger-sql' });
  await pool.query(`DROP TABLE IF EXISTS bench_journal, bench_account`);
  await pool.query(`CREATE TABLE bench_account (id bigint PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0), updated_at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(
    `CREATE TABLE bench_journal (id bigserial PRIMARY KEY, debit_id bigint NOT NULL, credit_id bigint NOT NULL, amount bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  await pool.query(`INSERT INTO bench_account (id, balance) SELECT g, 200000000 FROM generate_series(1, $1::int) g`, [accounts]);
  await pool.query('ANALYZE bench_account');
  return {
    async transfer(from, to) {
      const a = from + 1;
      const b = to + 1;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT id, balance FROM bench_account WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [[a, b]]);
        await client.query('UPDATE bench_account SET balance = balance - $2, updated_at = now() WHERE id = $1', [a, 1]);
        await client.query('UPDATE bench_account SET balance = balance + $2, updated_at = now() WHERE id = $1', [b, 1]);
        await client.query('INSERT INTO bench_journal (debit_id, credit_id, amount) VALUES ($1, $2, $3)', [a, b, 1]);
        await client.query('COMMIT');
        client.release();
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true);
        throw err;
      }
    },
    async total() {
      const { rows } = await pool.query<{ total: string }>('SELECT sum(balance)::text AS total FROM bench_account');
      return BigInt(rows[0].total);
    },
    async close() {
      await pool.query(`DROP TABLE IF EXISTS bench_journal, bench_account`).catch(() => undefined);
      await pool.end();
    },
  };
}
