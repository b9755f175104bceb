import { walletErrors } from '../domain/wallet.errors';

// GetProxyMetrics' window: the calls recorded in (as_of − window, as_of]; "all" has no lower bound.

export const METRICS_WINDOWS = ['all', '1h', '1d', '7d', '30d'] as const;
export type MetricsWindow = (typeof METRICS_WINDOWS)[number];

const HOUR_MS = 3_600_000;
const WINDOW_MS: Record<Exclude<MetricsWindow, 'all'>, number> = { '1h': HOUR_MS, '1d': 24 * HOUR_MS, '7d': 7 * 24 * HOUR_MS, '30d': 30 * 24 * HOUR_MS };

/** Absent or "" → all; anything else but the listed names → validation_failed. */
export function parseMetricsWindow(value: string | undefined): MetricsWindow {
  if (value === undefined || value === '') return 'all';
  if (!(METRICS_WINDOWS as readonly string[]).includes(value)) {
    throw walletErrors.validationFailed(`window must be one of ${METRICS_WINDOWS.join(', ')}`, { field: 'window' });
  }
  return value as MetricsWindow;
}

/** The exclusive lower bound of the window ending at `asOf` (null for "all"). */
export function windowStart(window: MetricsWindow, asOf: Date): Date | null {
  return window === 'all' ? null : new Date(asOf.getTime() - WINDOW_MS[window]);
}

/** One (agent, upstream) row of the metrics. */
export interface ProxyMetricsRow {
  agentId: string;
  upstream: string;
  calls: number;
  /** Calls whose upstream status was ≥ 400. */
  errors: number;
  /** Per currency, sorted by currency; micro-units. */
  spend: Array<{ currency: string; amount: bigint }>;
  latencyP50Ms: number;
  latencyP90Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
}

export interface ProxyMetrics {
  window: MetricsWindow;
  asOf: Date;
  /** Sorted by (agent_id, upstream). */
  rows: ProxyMetricsRow[];
}

/** A status the gateway counts as an upstream error. */
export const ERROR_STATUS_MIN = 400;
