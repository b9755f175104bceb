import { errors } from '@exchange/platform';
import { DAY_MS } from './window';

// The weekly report's week: Monday 00:00 UTC (inclusive) to the next Monday (exclusive).

export interface ReportWeek {
  start: Date;
  end: Date;
  /** YYYY-MM-DD of start and of end (the next Monday). */
  weekStart: string;
  weekEnd: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WEEK_MS = 7 * DAY_MS;

function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function weekFrom(start: Date): ReportWeek {
  const end = new Date(start.getTime() + WEEK_MS);
  return { start, end, weekStart: day(start), weekEnd: day(end) };
}

/** The Monday 00:00 UTC on or before `at`. */
export function mondayOf(at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7; // Sunday 0 → 6
  return new Date(midnight - sinceMonday * DAY_MS);
}

/**
 * week_start given: a real calendar date, a Monday, and a week that has started by `now` (else
 * 400 invalid_week_start). Absent or empty: the last complete week, the one before this Monday's.
 */
export function resolveReportWeek(weekStart: string | undefined, now: Date): ReportWeek {
  if (weekStart === undefined || weekStart === '') return weekFrom(new Date(mondayOf(now).getTime() - WEEK_MS));
  const m = DATE.exec(weekStart);
  const start = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  // Date.UTC rolls 2026-02-30 over to March: a real date formats back to the same text.
  if (start === null || Number.isNaN(start.getTime()) || day(start) !== weekStart) {
    throw errors.invalidArgument('invalid_week_start', 'week_start must be a date YYYY-MM-DD', { week_start: weekStart.slice(0, 64) });
  }
  if (start.getUTCDay() !== 1) throw errors.invalidArgument('invalid_week_start', 'week_start must be a Monday (UTC)', { week_start: weekStart });
  if (start.getTime() > now.getTime()) throw errors.invalidArgument('invalid_week_start', 'that week has not started yet', { week_start: weekStart });
  return weekFrom(start);
}
