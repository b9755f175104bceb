import { addIsoDuration, parseIsoDuration } from './duration';

describe('ISO 8601 durations', () => {
  const t0 = new Date('2026-01-31T10:00:00.000Z');

  it('should parse every part and refuse what is not a duration', () => {
    expect(parseIsoDuration('P1Y2M3W4DT5H6M7S')).toEqual({ years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7 });
    expect(parseIsoDuration('PT12H')).toEqual({ years: 0, months: 0, weeks: 0, days: 0, hours: 12, minutes: 0, seconds: 0 });
    for (const bad of ['', 'P', 'PT', '3D', 'P1.5D', 'P-1D', 'p3d', 'P3DT', 'PT1D']) expect(parseIsoDuration(bad)).toBeNull();
  });

  it('should add elapsed time for weeks, days, hours, minutes and seconds', () => {
    expect(addIsoDuration(t0, 'P3D').toISOString()).toBe('2026-02-03T10:00:00.000Z');
    expect(addIsoDuration(t0, 'P1W').toISOString()).toBe('2026-02-07T10:00:00.000Z');
    expect(addIsoDuration(t0, 'PT36H').toISOString()).toBe('2026-02-01T22:00:00.000Z');
    expect(addIsoDuration(t0, 'P1DT1H1M1S').toISOString()).toBe('2026-02-01T11:01:01.000Z');
  });

  it('should move the calendar for months and years (UTC, overflowing like Date)', () => {
    expect(addIsoDuration(new Date('2026-03-15T00:00:00.000Z'), 'P1M').toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(addIsoDuration(new Date('2026-03-15T00:00:00.000Z'), 'P1Y').toISOString()).toBe('2027-03-15T00:00:00.000Z');
    expect(addIsoDuration(t0, 'P1M').toISOString()).toBe('2026-03-03T10:00:00.000Z');
  });

  it('should throw on a malformed duration (templates are checked by the migration)', () => {
    expect(() => addIsoDuration(t0, '3 days')).toThrow('not an ISO 8601 duration');
  });
});
