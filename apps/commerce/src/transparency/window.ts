import { errors } from '@exchange/platform';

// The time windows transparency reads: a UTC month `YYYY-MM` (rollups) or a from/to range
// (shadow compare). Both are half-open [from, to): an instant belongs to one month only.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

export interface TimeWindow {
  from: Date;
  to: Date;
}

function invalidWindow(message: string, details?: Record<string, unknown>): Error {
  return errors.invalidArgument('invalid_window', message, details);
}

// Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not.
function monthStart(year: number, monthIndex: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, 1);
  return d;
}

/** `YYYY-MM` → [first instant of the month, first instant of the next) in UTC; anything else 400 invalid_window. */
export function monthWindow(window: string | undefined): TimeWindow {
  const m = MONTH.exec(window ?? '');
  if (!m) throw invalidWindow('window must be a month YYYY-MM', { window: (window ?? '').slice(0, 40) });
  return { from: monthStart(Number(m[1]), Number(m[2]) - 1), to: monthStart(Number(m[1]), Number(m[2])) };
}

/** An optional month: absent or "" means all time (null). */
export function optionalMonthWindow(window: string | undefined): TimeWindow | null {
  return window === undefined || window === '' ? null : monthWindow(window);
}

const valid = (d: Date | undefined): d is Date => d !== undefined && !Number.isNaN(d.getTime());

/**
 * from/to, each optional: `to` defaults to now, `from` to 30 days before `to`. Reversed (from
 * after to) or longer than 366 days → 400 invalid_window.
 */
export function rangeWindow(from: Date | undefined, to: Date | undefined, now: Date): TimeWindow {
  if ((from !== undefined && !valid(from)) || (to !== undefined && !valid(to))) throw invalidWindow('from and to must be valid instants');
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (start.getTime() > end.getTime()) throw invalidWindow('from is after to', { from: start.toISOString(), to: end.toISOString() });
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS) throw invalidWindow(`the window is longer than ${MAX_RANGE_DAYS} days`, { max_days: MAX_RANGE_DAYS });
  return { from: start, to: end };
}
