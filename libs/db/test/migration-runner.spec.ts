import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { MigrationChecksumError, MigrationFailedError, migrationChecksum, runMigrations } from '../src';

describe('runMigrations (real PostgreSQL)', () => {
  let db: TestDatabase;
  let dir: string;
  let pool: pg.Pool;

  const write = (name: string, sql: string) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  };
  const run = () => runMigrations({ connectionString: db.url, migrationsDir: dir, logger: testLogger });
  const history = async () =>
    (await pool.query('SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name')).rows;

  beforeEach(async () => {
    db = await createTestDatabase('migrations');
    dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies migrations in order and records them as Prisma does', async () => {
    write('20260102000000_second', 'ALTER TABLE widgets ADD COLUMN size BIGINT NOT NULL DEFAULT 0;');
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);\nCREATE INDEX widgets_id ON widgets (id);');
    writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');

    expect(await run()).toEqual({ applied: ['20260101000000_first', '20260102000000_second'] });

    await pool.query("INSERT INTO widgets (id, size) VALUES ('w1', 5)");
    const rows = await history();
    expect(rows.map((r) => r.migration_name)).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(rows[0].checksum).toBe(
      migrationChecksum('CREATE TABLE widgets (id TEXT PRIMARY KEY);\nCREATE INDEX widgets_id ON widgets (id);'),
    );
    expect(rows.every((r) => r.finished_at instanceof Date && r.applied_steps_count === 1)).toBe(true);
    const columns = await pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position",
    );
    expect(columns.rows.map((r) => r.column_name)).toEqual([
      'id', 'checksum', 'finished_at', 'migration_name', 'logs', 'rolled_back_at', 'started_at', 'applied_steps_count',
    ]);
  });

  it('is idempotent: a second run applies nothing, a new folder is applied alone', async () => {
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);');
    await run();
    expect(await run()).toEqual({ applied: [] });
    write('20260103000000_third', 'CREATE TABLE gadgets (id TEXT PRIMARY KEY);');
    expect(await run()).toEqual({ applied: ['20260103000000_third'] });
    expect(await history()).toHaveLength(2);
  });

  it('applies each migration once when two runners start at the same time', async () => {
    // Not idempotent SQL: a second application would fail on the existing table.
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);');
    write('20260102000000_second', 'CREATE TABLE gadgets (id TEXT PRIMARY KEY);');
    const [one, two] = await Promise.all([run(), run()]);
    expect([...one.applied, ...two.applied].sort()).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(await history()).toHaveLength(2);
  });

  it('refuses to start when an applied migration changed, naming it', async () => {
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);');
    await run();
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY, extra INT);');
    write('20260102000000_second', 'CREATE TABLE gadgets (id TEXT PRIMARY KEY);');
    const attempt = run();
    await expect(attempt).rejects.toThrow(MigrationChecksumError);
    await expect(attempt).rejects.toThrow('20260101000000_first');
    const tables = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'gadgets'");
    expect(tables.rowCount).toBe(0);
  });

  it('refuses to start when a recorded migration folder is missing', async () => {
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);');
    await run();
    rmSync(join(dir, '20260101000000_first'), { recursive: true });
    await expect(run()).rejects.toThrow(/20260101000000_first.*folder is missing/);
  });

  it('rolls back a failing migration and does not record it', async () => {
    write('20260101000000_first', 'CREATE TABLE widgets (id TEXT PRIMARY KEY);');
    write('20260102000000_broken', 'CREATE TABLE gadgets (id TEXT PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);');
    const attempt = run();
    await expect(attempt).rejects.toThrow(MigrationFailedError);
    await expect(attempt).rejects.toThrow('20260102000000_broken');
    expect((await history()).map((r) => r.migration_name)).toEqual(['20260101000000_first']);
    const gadgets = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'gadgets'");
    expect(gadgets.rowCount).toBe(0);

    write('20260102000000_broken', 'CREATE TABLE gadgets (id TEXT PRIMARY KEY);');
    expect(await run()).toEqual({ applied: ['20260102000000_broken'] });
  });
});
