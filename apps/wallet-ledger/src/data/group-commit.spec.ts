import { GroupCommitter, type Scheduler, type Settled } from './group-commit';

/** A hand-driven scheduler and commit: the test decides when windows end and batches finish. */
function rig(opts: { maxBatch: number; maxInFlight: number; windowUs?: number }) {
  const timers: Array<{ us: number; fn: () => void }> = [];
  const schedule: Scheduler = (us, fn) => timers.push({ us, fn });
  const batches: Array<{ items: number[]; finish: (r: Array<Settled<string>>) => void; fail: (e: unknown) => void }> = [];
  const committer = new GroupCommitter<number, string>(
    { windowUs: opts.windowUs ?? 0, ...opts },
    (items) => new Promise((finish, fail) => batches.push({ items, finish, fail })),
    schedule,
  );
  const fireWindow = () => timers.shift()!.fn();
  const ok = (items: number[]) => items.map((i) => ({ value: `r${i}` }));
  return { committer, timers, batches, fireWindow, ok };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommitter', () => {
  it('should hand items that arrive within the window to one commit, in order, each its own result', async () => {
    const r = rig({ maxBatch: 10, maxInFlight: 1, windowUs: 250 });
    const results = [1, 2, 3].map((i) => r.committer.submit(i));
    expect(r.timers.map((t) => t.us)).toEqual([250]); // one window for the three
    r.fireWindow();
    expect(r.batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    r.batches[0].finish([{ value: 'a' }, { error: new Error('b failed') }, { value: 'c' }]);
    expect(await Promise.allSettled(results)).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new Error('b failed') },
      { status: 'fulfilled', value: 'c' },
    ]);
  });

  it('should queue what arrives during a commit and send it as the next batch without a new window', async () => {
    const r = rig({ maxBatch: 10, maxInFlight: 1 });
    const first = r.committer.submit(1);
    r.fireWindow();
    const later = [2, 3, 4].map((i) => r.committer.submit(i));
    expect(r.timers).toHaveLength(0); // no slot free: no window either
    expect(r.committer.waiting).toBe(3);
    r.batches[0].finish(r.ok([1]));
    await first;
    await tick();
    expect(r.batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    r.batches[1].finish(r.ok([2, 3, 4]));
    expect(await Promise.all(later)).toEqual(['r2', 'r3', 'r4']);
  });

  it('should cut batches at maxBatch and send a full batch at once', () => {
    const r = rig({ maxBatch: 2, maxInFlight: 2 });
    for (const i of [1, 2, 3, 4, 5]) void r.committer.submit(i);
    expect(r.batches.map((b) => b.items)).toEqual([[1, 2], [3, 4]]); // two slots, both full
    expect(r.committer.waiting).toBe(1);
  });

  it('should start a second batch while one commits when maxInFlight allows it', () => {
    const r = rig({ maxBatch: 10, maxInFlight: 2 });
    void r.committer.submit(1);
    r.fireWindow();
    void r.committer.submit(2);
    r.fireWindow();
    expect(r.batches.map((b) => b.items)).toEqual([[1], [2]]);
  });

  it('should fail every item of a batch whose commit throws, and go on with the next', async () => {
    const r = rig({ maxBatch: 10, maxInFlight: 1 });
    const a = r.committer.submit(1);
    const b = r.committer.submit(2);
    r.fireWindow();
    const c = r.committer.submit(3);
    r.batches[0].fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await expect(b).rejects.toThrow('connection lost');
    await tick();
    r.batches[1].finish(r.ok([3]));
    await expect(c).resolves.toBe('r3');
  });

  it('should refuse a commit that answers for fewer items than it was given', async () => {
    const r = rig({ maxBatch: 10, maxInFlight: 1 });
    const results = [r.committer.submit(1), r.committer.submit(2)];
    r.fireWindow();
    r.batches[0].finish(r.ok([1]));
    for (const p of results) await expect(p).rejects.toThrow('1 results for 2 items');
  });

  it('should refuse settings that could never commit', () => {
    expect(() => new GroupCommitter({ maxBatch: 0, windowUs: 0, maxInFlight: 1 }, async () => [])).toThrow();
    expect(() => new GroupCommitter({ maxBatch: 1, windowUs: 0, maxInFlight: 0 }, async () => [])).toThrow();
  });
});
