import { nextUtcMidnight, utcDay } from './utc-day';

describe('utcDay / nextUtcMidnight', () => {
  it.each([
    ['2026-11-21T00:00:00.000Z', '2026-11-21', '2026-11-22T00:00:00.000Z'],
    ['2026-11-21T23:59:59.999Z', '2026-11-21', '2026-11-22T00:00:00.000Z'],
    ['2026-12-31T12:00:00.000Z', '2026-12-31', '2027-01-01T00:00:00.000Z'],
    ['2028-02-28T23:00:00.000Z', '2028-02-28', '2028-02-29T00:00:00.000Z'],
  ])('should put %s on %s, resetting at %s', (at, day, reset) => {
    expect(utcDay(new Date(at))).toBe(day);
    expect(nextUtcMidnight(new Date(at)).toISOString()).toBe(reset);
  });
});
