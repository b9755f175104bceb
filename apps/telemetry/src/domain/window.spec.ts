import { resolveRollupRange, resolveWindowName } from './window';
import { mondayOf, resolveReportWeek } from './window-week';

const NOW = new Date('2026-10-21T12:00:00.000Z'); // a Wednesday

function codeOf(fn: () => unknown): { code: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    const e = err as { code: string; details: unknown };
    return { code: e.code, details: e.details };
  }
  throw new Error('did not throw');
}

describe('rollup windows', () => {
  it('should default to 7d ending now', () => {
    expect(resolveRollupRange(undefined, undefined, NOW)).toEqual({ window: '7d', from: new Date('2026-10-14T12:00:00.000Z'), asOf: NOW });
    expect(resolveWindowName('')).toBe('7d');
  });

  it('should size each window from as_of and leave "all" open', () => {
    const asOf = new Date('2026-10-20T00:00:00.000Z');
    expect(resolveRollupRange('1h', asOf, NOW).from).toEqual(new Date('2026-10-19T23:00:00.000Z'));
    expect(resolveRollupRange('1d', asOf, NOW).from).toEqual(new Date('2026-10-19T00:00:00.000Z'));
    expect(resolveRollupRange('30d', asOf, NOW).from).toEqual(new Date('2026-09-20T00:00:00.000Z'));
    expect(resolveRollupRange('all', asOf, NOW)).toEqual({ window: 'all', from: null, asOf });
  });

  it('should refuse an unknown window and a future as_of naming the field', () => {
    expect(codeOf(() => resolveRollupRange('2w', undefined, NOW))).toEqual({ code: 'validation_failed', details: { field: 'window' } });
    expect(codeOf(() => resolveRollupRange('7d', new Date(NOW.getTime() + 1), NOW))).toEqual({ code: 'validation_failed', details: { field: 'as_of' } });
  });
});

describe('report weeks', () => {
  it('should find the Monday of any day (Sunday belongs to the week before)', () => {
    expect(mondayOf(new Date('2026-10-19T00:00:00.000Z'))).toEqual(new Date('2026-10-19T00:00:00.000Z'));
    expect(mondayOf(new Date('2026-10-25T23:59:59.999Z'))).toEqual(new Date('2026-10-19T00:00:00.000Z'));
  });

  it('should default to the last complete week', () => {
    expect(resolveReportWeek(undefined, NOW)).toEqual({
      start: new Date('2026-10-12T00:00:00.000Z'),
      end: new Date('2026-10-19T00:00:00.000Z'),
      weekStart: '2026-10-12',
      weekEnd: '2026-10-19',
    });
  });

  it('should take a started Monday, the current week included', () => {
    expect(resolveReportWeek('2026-10-19', NOW).weekEnd).toBe('2026-10-26');
    expect(resolveReportWeek('2025-12-29', NOW).weekEnd).toBe('2026-01-05');
  });

  it.each(['2026-10-20', '2026-02-30', '2026-10-5', 'monday', '2026-10-26'])('should refuse %s with invalid_week_start', (value) => {
    expect(codeOf(() => resolveReportWeek(value, NOW)).code).toBe('invalid_week_start');
  });
});
