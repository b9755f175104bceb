import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { realServicesRequired } from './real-services';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The PostgreSQL server tests create their databases on: TEST_PG_ADMIN_URL, else DATABASE_URL
 * (a real server, as in CI), else the embedded server jest-global-setup.js started for this run.
 */
export function testServerUrl(env: NodeJS.ProcessEnv = process.env): string {
  const real = env['TEST_PG_ADMIN_URL'] || env['DATABASE_URL'];
  if (real) return real;
  if (realServicesRequired(env)) {
    throw new Error('REQUIRE_REAL_SERVICES=1 but neither TEST_PG_ADMIN_URL nor DATABASE_URL is set');
  }
  const embedded = env['TEST_PG_EMBEDDED_URL'];
  if (embedded) return embedded;
  throw new Error(
    'No PostgreSQL for tests: set DATABASE_URL, or add globalSetup/globalTeardown from libs/testing/src/jest-global-{setup,teardown}.js to this project\'s jest.config.js',
  );
}

/** A fresh, empty database named after `name` (plus a random suffix) on the test server. */
export async function createTestDatabase(name: string): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 40);
  const database = `test_${slug}_${randomBytes(5).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`));
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withAdmin(serverUrl, async (admin) => {
        // Pools that were just ended may still be closing their sockets: give them a moment, so
        // FORCE only ever hits connections a test forgot (killing a closing one surfaces as an
        // unhandled 57P01 error in whichever test runs next).
        for (let i = 0; i < 50; i++) {
          const { rows } = await admin.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [database],
          );
          if (rows[0].n === 0) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        // FORCE: a test that forgot to close a pool must not leave the database behind.
        await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(database)} WITH (FORCE)`);
      });
    },
  };
}

/**
 * Drops every database whose name starts with `prefix` on the server of `serverUrl` — what a
 * stack booted with EXCHANGE_DB_PREFIX created (one database per service).
 */
export async function dropDatabasesWithPrefix(serverUrl: string, prefix: string): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*_$/.test(prefix)) throw new Error(`refusing to drop databases by the prefix ${JSON.stringify(prefix)}`);
  return withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`);
    return rows.map((r) => r.datname);
  });
}

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
