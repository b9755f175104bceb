import { errors } from '@exchange/platform';

// Rollup and outcome windows (RollupQuery): every figure counts facts at ∈ (from, as_of]; "all"
// has no start. The same names and as_of rule as the market's insights (apps/market insights/window.ts).

export type RollupWindowName = 'all' | '1h' | '1d' | '7d' | '30d';

export const ROLLUP_WINDOWS: readonly RollupWindowName[] = ['all', '1h', '1d', '7d', '30d'];
export const DEFAULT_ROLLUP_WINDOW: RollupWindowName = '7d';

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const WINDOW_MS: Readonly<Record<RollupWindowName, number | null>> = {
  all: null,
  '1h': HOUR_MS,
  '1d': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};

export interface RollupRange {
  window: RollupWindowName;
  /** Exclusive start; null for "all". */
  from: Date | null;
  /** Inclusive end. */
  asOf: Date;
}

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

/** window: one of all, 1h, 1d, 7d, 30d; empty = 7d. Anything else is 400 validation_failed naming the field. */
export function resolveWindowName(value: string | undefined): RollupWindowName {
  if (value === undefined || value === '') return DEFAULT_ROLLUP_WINDOW;
  const name = ROLLUP_WINDOWS.find((w) => w === value);
  if (name === undefined) invalid('window', `window must be one of ${ROLLUP_WINDOWS.join(', ')}`);
  return name;
}

/** as_of defaults to now; a time in the future is 400 validation_failed (the future has no facts yet). */
export function resolveAsOf(asOf: Date | undefined, now: Date): Date {
  if (asOf === undefined) return now;
  if (Number.isNaN(asOf.getTime())) invalid('as_of', 'as_of must be an RFC 3339 time');
  if (asOf.getTime() > now.getTime()) invalid('as_of', 'as_of must not be in the future');
  return asOf;
}

export function resolveRollupRange(window: string | undefined, asOf: Date | undefined, now: Date): RollupRange {
  const name = resolveWindowName(window);
  const end = resolveAsOf(asOf, now);
  const ms = WINDOW_MS[name];
  return { window: name, from: ms === null ? null : new Date(end.getTime() - ms), asOf: end };
}
