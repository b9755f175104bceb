import { errors } from '@exchange/platform';

// Time windows of the insights: every figure counts facts in (start, as_of]; "all" has no start.

export type InsightWindowName = 'all' | '1h' | '1d' | '7d' | '30d';

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export const WINDOW_MS: Readonly<Record<InsightWindowName, number | null>> = {
  all: null,
  '1h': HOUR_MS,
  '1d': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};

export const DEFAULT_WINDOW_DAYS = 90;
export const MAX_WINDOW_DAYS = 3650;

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

/** as_of defaults to now; a time in the future is 400 validation_failed (the future has no facts yet). */
export function resolveAsOf(asOf: Date | undefined, now: Date): Date {
  if (asOf === undefined) return now;
  if (Number.isNaN(asOf.getTime())) invalid('as_of', 'as_of must be an RFC 3339 time');
  if (asOf.getTime() > now.getTime()) invalid('as_of', 'as_of must not be in the future');
  return asOf;
}

/**
 * include_sandbox of the price index and the task tape: as asked, else what the exchange is — a
 * sandbox exchange has only sandbox contracts, so leaving them out would show nothing; on mainnet
 * sandbox trades would distort real prices. Absent env = mainnet rules (MarketRuntime).
 */
export function resolveIncludeSandbox(value: boolean | undefined, exchangeEnv: 'sandbox' | 'mainnet' | undefined): boolean {
  return value ?? exchangeEnv === 'sandbox';
}

/** window_days: 1–3650, default 90. */
export function resolveWindowDays(value: number | undefined): number {
  if (value === undefined) return DEFAULT_WINDOW_DAYS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_WINDOW_DAYS) invalid('window_days', `window_days must be 1-${MAX_WINDOW_DAYS}`);
  return value;
}

/** Exclusive start of a window ending at asOf (null: unbounded). */
export function windowStartOf(asOf: Date, windowMs: number | null): Date | null {
  return windowMs === null ? null : new Date(asOf.getTime() - windowMs);
}

/** at ∈ (start, asOf]. */
export function inWindow(at: Date | null | undefined, start: Date | null, asOf: Date): boolean {
  if (!at) return false;
  const t = at.getTime();
  return t <= asOf.getTime() && (start === null || t > start.getTime());
}
