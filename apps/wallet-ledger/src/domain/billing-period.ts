import { errors } from '@exchange/platform';

// Billing periods are UTC calendar months "YYYY-MM" (README.md "Metering, billing, gateway proxy").
// A period is open for meter events from its start until its subject's period receipt is emitted,
// but never once it is older than the previous month: on 2026-11-25, 2026-10 and 2026-11 are open.

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** How far ahead of the exchange clock a meter event's occurred_at may be. */
export const MAX_FUTURE_MS = 5 * 60 * 1000;

export interface Period {
  period: string;
  /** First instant of the month (UTC). */
  start: Date;
  /** First instant of the next month (exclusive end). */
  end: Date;
}

export function periodOf(at: Date): string {
  return `${String(at.getUTCFullYear()).padStart(4, '0')}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A `YYYY-MM` period, else 400 invalid_period. */
export function parsePeriod(value: string): Period {
  const m = PERIOD.exec(value);
  if (!m) throw errors.invalidArgument('invalid_period', 'period must be a UTC month YYYY-MM', { field: 'period' });
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return { period: value, start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/** A period that has begun by `now`, else 400 invalid_period. */
export function parseBegunPeriod(value: string, now: Date): Period {
  const p = parsePeriod(value);
  if (p.start.getTime() > now.getTime()) throw errors.invalidArgument('invalid_period', `period ${value} has not begun`, { field: 'period' });
  return p;
}

export function previousPeriod(period: string): string {
  const { start } = parsePeriod(period);
  return periodOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1)));
}

/** Whether a meter event at `occurredAt` may still be ingested at `now`, receipts aside: not too far ahead, not older than the previous month. */
export function ingestWindow(occurredAt: Date, now: Date): 'ok' | 'future' | 'closed' {
  if (occurredAt.getTime() > now.getTime() + MAX_FUTURE_MS) return 'future';
  return periodOf(occurredAt) >= previousPeriod(periodOf(now)) ? 'ok' : 'closed';
}

/** Whether the whole period lies before `now` (a period receipt is emitted only then). */
export function periodEnded(period: string, now: Date): boolean {
  return parsePeriod(period).end.getTime() <= now.getTime();
}
