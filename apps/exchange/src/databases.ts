import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@exchange/db';
import type { Logger } from '@exchange/platform';
import { join } from 'node:path';

export interface DatabaseProvider {
  /** Connection string of the service's own database, created if missing. */
  databaseFor(service: string): Promise<string>;
  readonly kind: 'embedded' | 'external';
  stop(): Promise<void>;
}

// One database per service (DESIGN §6): on the server of DATABASE_URL when given, else on an
// embedded PostgreSQL whose data lives under the data directory and survives restarts.
export async function openDatabases(opts: {
  databaseUrl?: string;
  prefix: string;
  dataDir: string;
  embeddedPort: number;
  logger: Logger;
}): Promise<DatabaseProvider> {
  if (opts.databaseUrl) {
    const adminUrl = opts.databaseUrl;
    return {
      kind: 'external',
      async databaseFor(service) {
        const name = `${opts.prefix}${service.replace(/-/g, '_')}`;
        await ensureDatabase(adminUrl, name);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        return url.toString();
      },
      // The server is not ours to stop.
      stop: () => Promise.resolve(),
    };
  }
  const pg: EmbeddedPostgresHandle = await startEmbeddedPostgres({
    dataDir: join(opts.dataDir, 'pg'),
    port: opts.embeddedPort || undefined,
    logger: opts.logger,
  });
  return {
    kind: 'embedded',
    databaseFor: (service) => pg.ensureDatabase(service.replace(/-/g, '_')),
    stop: () => pg.stop(),
  };
}
