import { checkAgentTimestamp } from './agent-signature';
import { MemoryNonceStore, ReplayGuard, type NonceStore } from './replay-guard';

function clock(startMs: number) {
  let t = startMs;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const T0 = 1_800_000_000_000;
const TS = String(T0 / 1000);

describe('MemoryNonceStore', () => {
  it('should accept a key once, remember it until its ttl, then forget it', async () => {
    const c = clock(T0);
    const store = new MemoryNonceStore(c.now);
    expect(await store.claim('a n1', 10_000)).toBe(true);
    expect(await store.claim('a n1', 10_000)).toBe(false);
    expect(await store.claim('b n1', 10_000)).toBe(true);
    c.advance(9_999);
    expect(await store.claim('a n1', 10_000)).toBe(false);
    c.advance(1);
    expect(await store.claim('a n1', 10_000)).toBe(true);
  });

  it('should drop expired keys so the size stays bounded by what is alive', async () => {
    const c = clock(T0);
    const store = new MemoryNonceStore(c.now);
    for (let i = 0; i < 100; i++) await store.claim(`k${i}`, 5_000);
    expect(store.size).toBe(100);
    c.advance(6_000);
    await store.claim('fresh', 5_000);
    expect(store.size).toBe(1);
    // After a gap much longer than the window too.
    for (let i = 0; i < 10; i++) await store.claim(`m${i}`, 600_000);
    c.advance(86_400_000);
    await store.claim('later', 1_000);
    expect(store.size).toBe(1);
  });

  it('should refuse new keys when full of unexpired ones rather than forget one early', async () => {
    const c = clock(T0);
    const store = new MemoryNonceStore(c.now, 3);
    for (const k of ['a', 'b', 'c']) expect(await store.claim(k, 10_000)).toBe(true);
    await expect(store.claim('d', 10_000)).rejects.toThrow('the nonce store is full');
    expect(await store.claim('a', 10_000)).toBe(false);
    c.advance(10_000);
    expect(await store.claim('d', 10_000)).toBe(true);
  });
});

describe('ReplayGuard', () => {
  const failing: NonceStore = { claim: () => Promise.reject(new Error('redis down')) };

  it('should answer fresh, then reused for the same agent and nonce, and keep agents apart', async () => {
    const c = clock(T0);
    const guard = new ReplayGuard({ store: new MemoryNonceStore(c.now), now: c.now });
    const req = { agentId: 'a:agent:x', nonce: 'n'.repeat(16), timestamp: TS, mutation: true };
    expect(await guard.claim(req)).toBe('fresh');
    expect(await guard.claim(req)).toBe('reused');
    expect(await guard.claim({ ...req, agentId: 'a:agent:y' })).toBe('fresh');
  });

  it('should remember a nonce until its timestamp leaves the ±300 s window', async () => {
    const c = clock(T0);
    const guard = new ReplayGuard({ store: new MemoryNonceStore(c.now), now: c.now });
    // Signed 300 s in the future: still acceptable for 600 s.
    const req = { agentId: 'a:agent:x', nonce: 'f'.repeat(16), timestamp: String(T0 / 1000 + 300), mutation: false };
    expect(await guard.claim(req)).toBe('fresh');
    c.advance(600_999);
    expect(checkAgentTimestamp(req.timestamp, c.now())).toBe('ok');
    expect(await guard.claim(req)).toBe('reused');
    // Forgotten only once the timestamp check refuses the request by itself.
    c.advance(1);
    expect(checkAgentTimestamp(req.timestamp, c.now())).toBe('out_of_window');
    expect(await guard.claim(req)).toBe('fresh');
  });

  it('should fail closed for mutations when the shared store fails, and use the fallback for reads', async () => {
    const c = clock(T0);
    const errors: unknown[] = [];
    const guard = new ReplayGuard({ store: failing, fallback: new MemoryNonceStore(c.now), now: c.now, onStoreDown: (e) => errors.push(e) });
    const read = { agentId: 'a:agent:x', nonce: 'r'.repeat(16), timestamp: TS, mutation: false };
    expect(await guard.claim({ ...read, mutation: true })).toBe('unavailable');
    expect(await guard.claim(read)).toBe('fresh');
    expect(await guard.claim(read)).toBe('reused');
    expect(errors).toEqual([new Error('redis down')]);
  });

  it('should report the shared store down once per outage and up once when a claim succeeds again', async () => {
    const c = clock(T0);
    const shared = new MemoryNonceStore(c.now);
    let down = false;
    const flaky: NonceStore = { claim: (key, ttl) => (down ? Promise.reject(new Error('redis down')) : shared.claim(key, ttl)) };
    const events: string[] = [];
    const guard = new ReplayGuard({
      store: flaky,
      fallback: new MemoryNonceStore(c.now),
      now: c.now,
      onStoreDown: (e) => events.push(`down: ${(e as Error).message}`),
      onStoreUp: () => events.push('up'),
    });
    let n = 0;
    const claim = (mutation: boolean) => guard.claim({ agentId: 'a:agent:x', nonce: `nonce-${String(++n).padStart(10, '0')}`, timestamp: TS, mutation });

    expect(await claim(true)).toBe('fresh');
    expect(events).toEqual([]);
    down = true;
    for (let i = 0; i < 5; i++) expect(await claim(i % 2 === 0)).toBe(i % 2 === 0 ? 'unavailable' : 'fresh');
    expect(events).toEqual(['down: redis down']);
    down = false;
    expect(await claim(true)).toBe('fresh');
    expect(await claim(true)).toBe('fresh');
    expect(events).toEqual(['down: redis down', 'up']);
    // A new outage is reported again.
    down = true;
    expect(await claim(true)).toBe('unavailable');
    expect(await claim(true)).toBe('unavailable');
    expect(events).toEqual(['down: redis down', 'up', 'down: redis down']);
  });

  it('should not report the store up on a claim sent before the outage was noticed and answered late', async () => {
    const c = clock(T0);
    const slow = answeredByHand(c.now);
    const events: string[] = [];
    const guard = new ReplayGuard({ store: slow.store, now: c.now, onStoreDown: () => events.push('down'), onStoreUp: () => events.push('up') });
    let n = 0;
    const claim = () => guard.claim({ agentId: 'a:agent:x', nonce: `nonce-${String(++n).padStart(10, '0')}`, timestamp: TS, mutation: true });
    const answers = slow.answers;

    const early = claim(); // in flight when the outage begins
    slow.down = true;
    const failed = claim();
    answers[1]();
    expect(await failed).toBe('unavailable');
    answers[0](); // the early claim's answer arrives after the failure
    expect(await early).toBe('fresh');
    expect(events).toEqual(['down']);
    slow.down = false;
    const later = claim();
    answers[2]();
    expect(await later).toBe('fresh');
    expect(events).toEqual(['down', 'up']);
  });

  it('should not end a full-store report on a shared-store claim sent before it and answered late', async () => {
    const c = clock(T0);
    const slow = answeredByHand(c.now);
    let full = 0;
    const guard = new ReplayGuard({ store: slow.store, fallback: new MemoryNonceStore(c.now, 1), now: c.now, onStoreFull: () => full++ });
    let n = 0;
    const read = () => guard.claim({ agentId: 'a:agent:x', nonce: `nonce-${String(++n).padStart(10, '0')}`, timestamp: TS, mutation: false });
    const answers = slow.answers;

    const early = read(); // sent to Redis before the outage, answered late
    slow.down = true;
    const fills = read(); // Redis fails: the fallback takes it, and is now full
    answers[1]();
    expect(await fills).toBe('fresh');
    const refused = read();
    answers[2]();
    expect(await refused).toBe('unavailable');
    expect(full).toBe(1);
    answers[0]();
    expect(await early).toBe('fresh');
    const again = read(); // still full: the late answer ended nothing, so nothing new to report
    answers[3]();
    expect(await again).toBe('unavailable');
    expect(full).toBe(1);
  });

  it('should be unavailable when the memory store is full, reported once until a claim succeeds again', async () => {
    const c = clock(T0);
    let full = 0;
    const guard = new ReplayGuard({ store: new MemoryNonceStore(c.now, 1), now: c.now, onStoreFull: () => full++ });
    const req = { agentId: 'a:agent:x', nonce: 'a'.repeat(16), timestamp: TS, mutation: false };
    expect(await guard.claim(req)).toBe('fresh');
    expect(await guard.claim({ ...req, nonce: 'b'.repeat(16) })).toBe('unavailable');
    expect(await guard.claim({ ...req, nonce: 'c'.repeat(16) })).toBe('unavailable');
    expect(full).toBe(1);
    c.advance(302_000); // the first nonce expired: room again
    expect(await guard.claim({ ...req, nonce: 'd'.repeat(16) })).toBe('fresh');
    expect(await guard.claim({ ...req, nonce: 'e'.repeat(16) })).toBe('unavailable');
    expect(full).toBe(2);
  });

  it('should report a full fallback as full, not as the shared store down again', async () => {
    const c = clock(T0);
    const events: string[] = [];
    const guard = new ReplayGuard({
      store: { claim: () => Promise.reject(new Error('redis down')) },
      fallback: new MemoryNonceStore(c.now, 1),
      now: c.now,
      onStoreDown: () => events.push('down'),
      onStoreFull: () => events.push('full'),
    });
    const req = { agentId: 'a:agent:x', nonce: 'a'.repeat(16), timestamp: TS, mutation: false };
    expect(await guard.claim(req)).toBe('fresh');
    expect(await guard.claim({ ...req, nonce: 'b'.repeat(16) })).toBe('unavailable');
    expect(await guard.claim({ ...req, nonce: 'c'.repeat(16) })).toBe('unavailable');
    expect(events).toEqual(['down', 'full']);
  });
});

/**
 * A shared store whose every claim waits until the test calls its entry in `answers` (in the
 * order sent); a claim sent while `down` is then refused, as Redis would.
 */
function answeredByHand(now: () => number): { store: NonceStore; answers: Array<() => void>; down: boolean } {
  const shared = new MemoryNonceStore(now);
  const hand = {
    answers: [] as Array<() => void>,
    down: false,
    store: {
      claim: (key: string, ttl: number) => {
        const failing = hand.down;
        return new Promise<boolean>((resolve, reject) => hand.answers.push(() => (failing ? reject(new Error('redis down')) : resolve(shared.claim(key, ttl)))));
      },
    } as NonceStore,
  };
  return hand;
}
