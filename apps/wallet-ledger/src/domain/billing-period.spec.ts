import { DomainError } from '@exchange/platform';
import { ingestWindow, parseBegunPeriod, parsePeriod, periodEnded, periodOf, previousPeriod } from './billing-period';

const at = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('should name the UTC month of an instant', () => {
    expect(periodOf(at('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(periodOf(at('2026-11-01T00:00:00.000Z'))).toBe('2026-11');
    expect(periodOf(at('2026-01-01T00:30:00+01:00'))).toBe('2025-12');
  });

  it('should parse a period into its start and exclusive end', () => {
    expect(parsePeriod('2026-12')).toEqual({ period: '2026-12', start: at('2026-12-01T00:00:00.000Z'), end: at('2027-01-01T00:00:00.000Z') });
  });

  it.each(['2026-13', '2026-1', '26-10', '2026-10-01', '', '2026-00', ' 2026-10'])('should refuse %j as invalid_period', (value) => {
    expect(() => parsePeriod(value)).toThrow(expect.objectContaining({ code: 'invalid_period' }) as DomainError);
  });

  it('should refuse a period that has not begun', () => {
    expect(() => parseBegunPeriod('2026-12', at('2026-11-25T10:00:00Z'))).toThrow(expect.objectContaining({ code: 'invalid_period' }) as DomainError);
    expect(parseBegunPeriod('2026-11', at('2026-11-01T00:00:00Z')).period).toBe('2026-11');
  });

  it('should go back a month across a year', () => {
    expect(previousPeriod('2026-01')).toBe('2025-12');
    expect(previousPeriod('2026-11')).toBe('2026-10');
  });

  it('should keep the current and the previous month open, refuse older and more than 5 minutes ahead', () => {
    const now = at('2026-11-25T10:00:00.000Z');
    expect(ingestWindow(at('2026-10-01T00:00:00.000Z'), now)).toBe('ok');
    expect(ingestWindow(at('2026-09-30T23:59:59.999Z'), now)).toBe('closed');
    expect(ingestWindow(at('2026-11-25T10:05:00.000Z'), now)).toBe('ok');
    expect(ingestWindow(at('2026-11-25T10:05:00.001Z'), now)).toBe('future');
  });

  it('should say a period ended only once the next month began', () => {
    expect(periodEnded('2026-10', at('2026-10-31T23:59:59.999Z'))).toBe(false);
    expect(periodEnded('2026-10', at('2026-11-01T00:00:00.000Z'))).toBe(true);
  });
});
