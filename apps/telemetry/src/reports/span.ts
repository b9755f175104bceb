import type { RollupRange } from '../domain/window';
import type { ReportWeek } from '../domain/window-week';

// A time span the reports count in: a week is [Monday, next Monday), a rollup window (from, as_of].

export interface Span {
  from: Date | null;
  fromInclusive: boolean;
  to: Date;
  toInclusive: boolean;
}

export function weekSpan(week: ReportWeek): Span {
  return { from: week.start, fromInclusive: true, to: week.end, toInclusive: false };
}

export function rangeSpan(range: RollupRange): Span {
  return { from: range.from, fromInclusive: false, to: range.asOf, toInclusive: true };
}
