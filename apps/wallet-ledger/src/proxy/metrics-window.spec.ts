import { parseMetricsWindow, windowStart } from './metrics-window';

describe('proxy metrics window', () => {
  const asOf = new Date('2026-11-25T12:00:00.000Z');

  it('should default to all and accept the listed windows', () => {
    expect(parseMetricsWindow(undefined)).toBe('all');
    expect(parseMetricsWindow('')).toBe('all');
    for (const w of ['all', '1h', '1d', '7d', '30d']) expect(parseMetricsWindow(w)).toBe(w);
  });

  it('should refuse any other window, naming the field', () => {
    for (const w of ['2h', '1H', ' 1h', 'week']) {
      expect(() => parseMetricsWindow(w)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'window' } }));
    }
  });

  it('should start the window that long before as_of, and all with no lower bound', () => {
    expect(windowStart('all', asOf)).toBeNull();
    expect(windowStart('1h', asOf)).toEqual(new Date('2026-11-25T11:00:00.000Z'));
    expect(windowStart('1d', asOf)).toEqual(new Date('2026-11-24T12:00:00.000Z'));
    expect(windowStart('7d', asOf)).toEqual(new Date('2026-11-18T12:00:00.000Z'));
    expect(windowStart('30d', asOf)).toEqual(new Date('2026-10-26T12:00:00.000Z'));
  });
});
