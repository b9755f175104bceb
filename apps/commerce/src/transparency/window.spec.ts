import { monthWindow, optionalMonthWindow, rangeWindow } from './window';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'no error';
};

describe('transparency windows', () => {
  it('should read a month as its UTC bounds, December rolling into the next year', () => {
    expect(monthWindow('2026-02')).toEqual({ from: new Date('2026-02-01T00:00:00.000Z'), to: new Date('2026-03-01T00:00:00.000Z') });
    expect(monthWindow('2026-12')).toEqual({ from: new Date('2026-12-01T00:00:00.000Z'), to: new Date('2027-01-01T00:00:00.000Z') });
    expect(monthWindow('0050-03').from.toISOString()).toBe('0050-03-01T00:00:00.000Z');
  });

  it.each(['', '2026-13', '2026-00', '2026-1', '26-01', '2026-01-01', ' 2026-01', '2026/01', 'latest'])('should refuse %j as invalid_window', (w) => {
    expect(code(() => monthWindow(w))).toBe('invalid_window');
  });

  it('should read an absent optional month as all time', () => {
    expect(optionalMonthWindow(undefined)).toBeNull();
    expect(optionalMonthWindow('')).toBeNull();
    expect(optionalMonthWindow('2025-07')?.from).toEqual(new Date('2025-07-01T00:00:00.000Z'));
  });

  it('should default a range to the 30 days before now and keep given bounds', () => {
    const now = new Date('2026-11-25T00:00:00.000Z');
    expect(rangeWindow(undefined, undefined, now)).toEqual({ from: new Date('2026-10-26T00:00:00.000Z'), to: now });
    const from = new Date('2026-01-01T00:00:00.000Z');
    expect(rangeWindow(from, undefined, now)).toEqual({ from, to: now });
  });

  it('should refuse a reversed range, one over 366 days and invalid instants', () => {
    const now = new Date('2026-11-25T00:00:00.000Z');
    expect(code(() => rangeWindow(new Date('2026-11-02T00:00:00Z'), new Date('2026-11-01T00:00:00Z'), now))).toBe('invalid_window');
    expect(code(() => rangeWindow(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-03T00:00:00Z'), now))).toBe('invalid_window');
    expect(code(() => rangeWindow(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-02T00:00:00Z'), now))).toBe('no error');
    expect(code(() => rangeWindow(new Date('nope'), undefined, now))).toBe('invalid_window');
  });
});
