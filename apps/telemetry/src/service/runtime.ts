import type pg from 'pg';
import type { Logger } from '@exchange/platform';

/**
 * Everything the telemetry slices may use, built once by index.ts. Each slice's factory declares
 * what it uses as a `Pick<TelemetryRuntime, …>`, so its signature tells what it needs.
 */
export interface TelemetryRuntime {
  pool: pg.Pool;
  clock: () => Date;
  logger: Logger;
  /** Wakes the outbox relay after a commit that wrote events. */
  notify: () => void;
}
