import { inWindow, resolveAsOf, resolveIncludeSandbox, resolveWindowDays, windowStartOf, WINDOW_MS } from './window';

describe('insight windows', () => {
  const now = new Date('2026-01-10T12:00:00.000Z');

  it('should default as_of to now and refuse a future one (validation_failed naming as_of)', () => {
    expect(resolveAsOf(undefined, now)).toBe(now);
    const past = new Date('2026-01-01T00:00:00Z');
    expect(resolveAsOf(past, now)).toBe(past);
    expect(resolveAsOf(now, now)).toBe(now);
    expect(() => resolveAsOf(new Date(now.getTime() + 1), now)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'as_of' } }),
    );
  });

  it('should default include_sandbox to true in sandbox and false on mainnet, and keep an explicit value', () => {
    expect(resolveIncludeSandbox(undefined, 'sandbox')).toBe(true);
    expect(resolveIncludeSandbox(undefined, 'mainnet')).toBe(false);
    expect(resolveIncludeSandbox(undefined, undefined)).toBe(false);
    expect(resolveIncludeSandbox(false, 'sandbox')).toBe(false);
    expect(resolveIncludeSandbox(true, 'mainnet')).toBe(true);
  });

  it('should accept window_days 1–3650 (default 90) only', () => {
    expect(resolveWindowDays(undefined)).toBe(90);
    expect(resolveWindowDays(1)).toBe(1);
    expect(resolveWindowDays(3650)).toBe(3650);
    for (const bad of [0, 3651, -1, 1.5]) {
      expect(() => resolveWindowDays(bad)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'window_days' } }));
    }
  });

  it('should count a fact at as_of but not one at the window start (start, as_of]', () => {
    const start = windowStartOf(now, WINDOW_MS['1h']);
    expect(start).toEqual(new Date('2026-01-10T11:00:00.000Z'));
    expect(inWindow(now, start, now)).toBe(true);
    expect(inWindow(start, start, now)).toBe(false);
    expect(inWindow(new Date(now.getTime() + 1), start, now)).toBe(false);
    expect(inWindow(new Date('2000-01-01T00:00:00Z'), windowStartOf(now, WINDOW_MS.all), now)).toBe(true);
    expect(inWindow(null, null, now)).toBe(false);
  });
});
