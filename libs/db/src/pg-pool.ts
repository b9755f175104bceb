import pg from 'pg';
import type { Logger } from '@exchange/platform';

export interface PgPoolOptions {
  max?: number;
  applicationName?: string;
  /** Idle-client errors (server restart, network) are logged here instead of crashing the process. */
  logger?: Logger;
}

export function createPgPool(connectionString: string, opts: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: opts.max ?? 10, application_name: opts.applicationName });
  // Without a listener, an error on an idle pooled connection is an uncaught 'error' event.
  pool.on('error', (err) => opts.logger?.warn({ err: err.message }, 'idle PostgreSQL connection failed'));
  return pool;
}
