import { IntegrityCache, type GuardSnapshot } from './integrity-cache';

const on: GuardSnapshot = { readOnly: true, enabledSwitches: new Set(['read_only']) };
const off: GuardSnapshot = { readOnly: false, enabledSwitches: new Set() };

function setup(ttlMs = 1000) {
  let clock = 0;
  const answers: Array<GuardSnapshot | Error> = [];
  const lookups: string[] = [];
  const errors: unknown[] = [];
  const cache = new IntegrityCache(
    async (requestId) => {
      lookups.push(requestId);
      const next = answers.shift() ?? off;
      if (next instanceof Error) throw next;
      return next;
    },
    ttlMs,
    (err) => errors.push(err),
    () => clock,
  );
  return { cache, answers, lookups, errors, advance: (ms: number) => (clock += ms) };
}

describe('IntegrityCache', () => {
  it('should ask the market once per window and again after it', async () => {
    const t = setup();
    t.answers.push(on, off);
    expect(await t.cache.get('r1')).toBe(on);
    t.advance(999);
    expect(await t.cache.get('r2')).toBe(on);
    t.advance(1);
    expect(await t.cache.get('r3')).toBe(off);
    expect(t.lookups).toEqual(['r1', 'r3']);
  });

  it('should share one lookup between concurrent callers', async () => {
    const t = setup();
    t.answers.push(on);
    const [a, b] = await Promise.all([t.cache.get('r1'), t.cache.get('r2')]);
    expect([a, b]).toEqual([on, on]);
    expect(t.lookups).toEqual(['r1']);
  });

  it('should answer null when the market cannot be asked, report it and remember it for the window', async () => {
    const t = setup();
    t.answers.push(new Error('unavailable'), on);
    expect(await t.cache.get('r1')).toBeNull();
    expect(await t.cache.get('r2')).toBeNull();
    expect(t.errors).toHaveLength(1);
    t.advance(1000);
    expect(await t.cache.get('r3')).toBe(on);
  });

  it('should take a set() snapshot at once, over a lookup still in flight', async () => {
    const t = setup();
    t.answers.push(off);
    const pending = t.cache.get('r1');
    t.cache.set(on);
    expect(await pending).toBe(off);
    expect(await t.cache.get('r2')).toBe(on);
    expect(t.lookups).toEqual(['r1']);
  });

  it('should not cache with a zero window', async () => {
    const t = setup(0);
    t.answers.push(on, off);
    expect(await t.cache.get('r1')).toBe(on);
    expect(await t.cache.get('r2')).toBe(off);
  });
});
