import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@exchange/testing';
import { isCheckViolation, isLockTimeout, isUniqueViolation, withTransaction } from '../src';

describe('withTransaction and the error predicates (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('transactions');
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    await pool.query('CREATE TABLE t (id TEXT PRIMARY KEY, n INT NOT NULL CONSTRAINT t_n_positive CHECK (n > 0))');
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const ids = async () => (await pool.query<{ id: string }>('SELECT id FROM t ORDER BY id')).rows.map((r) => r.id);

  it('commits what fn wrote and answers its result', async () => {
    expect(await withTransaction(pool, async (c) => (await c.query("INSERT INTO t VALUES ('a', 1) RETURNING id")).rows[0].id)).toBe('a');
    expect(await ids()).toEqual(['a']);
  });

  it('rolls everything back when fn throws, and gives the connection back', async () => {
    const boom = new Error('boom');
    await expect(
      withTransaction(pool, async (c) => {
        await c.query("INSERT INTO t VALUES ('b', 1)");
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await ids()).toEqual(['a']);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('recognises unique, check and lock-timeout violations by code and constraint', async () => {
    const unique = await pool.query("INSERT INTO t VALUES ('a', 1)").catch((e: unknown) => e);
    expect(isUniqueViolation(unique)).toBe(true);
    expect(isUniqueViolation(unique, 't_pkey')).toBe(true);
    expect(isUniqueViolation(unique, 'other')).toBe(false);
    const check = await pool.query("INSERT INTO t VALUES ('c', 0)").catch((e: unknown) => e);
    expect(isCheckViolation(check, 't_n_positive')).toBe(true);
    expect(isUniqueViolation(check)).toBe(false);

    const holder = await pool.connect();
    const waiter = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT * FROM t WHERE id = 'a' FOR UPDATE");
      await waiter.query('BEGIN');
      await waiter.query("SET LOCAL lock_timeout = '50ms'");
      const timeout = await waiter.query("SELECT * FROM t WHERE id = 'a' FOR UPDATE").catch((e: unknown) => e);
      expect(isLockTimeout(timeout)).toBe(true);
      expect(isLockTimeout(check)).toBe(false);
    } finally {
      await waiter.query('ROLLBACK');
      await holder.query('ROLLBACK');
      waiter.release();
      holder.release();
    }
  });
});
