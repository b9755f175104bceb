import pg from 'pg';
import { createTestDatabase, dropDatabasesWithPrefix, testServerUrl } from './test-database';

describe('testServerUrl', () => {
  it('prefers TEST_PG_ADMIN_URL, then DATABASE_URL, then the embedded server', () => {
    const all = { TEST_PG_ADMIN_URL: 'postgresql://a/x', DATABASE_URL: 'postgresql://b/y', TEST_PG_EMBEDDED_URL: 'postgresql://c/z' };
    expect(testServerUrl(all)).toBe('postgresql://a/x');
    expect(testServerUrl({ ...all, TEST_PG_ADMIN_URL: undefined })).toBe('postgresql://b/y');
    expect(testServerUrl({ TEST_PG_EMBEDDED_URL: 'postgresql://c/z' })).toBe('postgresql://c/z');
  });

  it('refuses the embedded fallback when real services are required', () => {
    expect(() => testServerUrl({ REQUIRE_REAL_SERVICES: '1', TEST_PG_EMBEDDED_URL: 'postgresql://c/z' })).toThrow(/REQUIRE_REAL_SERVICES=1/);
  });

  it('explains the missing jest global setup', () => {
    expect(() => testServerUrl({})).toThrow(/globalSetup/);
  });
});

describe('createTestDatabase', () => {
  it('creates an empty, usable database and drops it', async () => {
    const db = await createTestDatabase('Testing Lib!');
    expect(new URL(db.url).pathname).toMatch(/^\/test_testing_lib_[0-9a-f]{10}$/);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const tables = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.rows[0].n).toBe(0);
    await client.end();
    await db.drop();
    const probe = new pg.Client({ connectionString: db.url });
    await expect(probe.connect()).rejects.toThrow(/does not exist/);
    await probe.end().catch(() => undefined);
  });
});

describe('dropDatabasesWithPrefix', () => {
  it('drops exactly the databases with the prefix and refuses a loose prefix', async () => {
    const server = testServerUrl();
    const prefix = `t${Date.now().toString(36)}_`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${prefix}identity`);
      await admin.query(`CREATE DATABASE ${prefix}market`);
      const keep = await createTestDatabase('keep-me');
      expect((await dropDatabasesWithPrefix(server, prefix)).sort()).toEqual([`${prefix}identity`, `${prefix}market`]);
      const left = await admin.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
      expect(left.rows).toEqual([]);
      const kept = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(keep.url).pathname.slice(1)]);
      expect(kept.rowCount).toBe(1);
      await keep.drop();
      await expect(dropDatabasesWithPrefix(server, '')).rejects.toThrow(/refusing/);
      await expect(dropDatabasesWithPrefix(server, 'test')).rejects.toThrow(/refusing/);
    } finally {
      await admin.end();
    }
  });
});
