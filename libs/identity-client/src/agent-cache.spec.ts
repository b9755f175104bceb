import { Metadata, status } from '@grpc/grpc-js';
import { createServiceClient } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { startFakeIdentity } from '@exchange/testing';
import { AgentCache } from './agent-cache';

const agent = (id: string, level = identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED): identityV1.Agent => ({
  agentId: id, primaryPubkey: 'P', keys: [], identityLevel: level, status: identityV1.AgentStatus.AGENT_STATUS_ACTIVE,
  createdAt: new Date(0), updatedAt: new Date(0),
});

describe(AgentCache.name, () => {
  let now = 0;
  let calls: string[];
  let release: (() => void) | undefined;
  const lookup = async (id: string) => {
    calls.push(id);
    if (release === undefined) return agent(id);
    await new Promise<void>((r) => (release = r));
    return agent(id);
  };

  beforeEach(() => {
    now = 1000;
    calls = [];
    release = undefined;
  });

  it('should look an agent up once and serve it from cache until the TTL passes', async () => {
    const sut = new AgentCache(lookup, 10_000, 100, () => now);
    await sut.get('a:agent:x', {});
    await sut.get('a:agent:x', {});
    expect(calls).toEqual(['a:agent:x']);
    now += 10_001;
    await sut.get('a:agent:x', {});
    expect(calls).toEqual(['a:agent:x', 'a:agent:x']);
  });

  it('should share one in-flight lookup between concurrent callers', async () => {
    release = () => undefined;
    const sut = new AgentCache(lookup, 10_000, 100, () => now);
    const p1 = sut.get('a:agent:y', {});
    const p2 = sut.get('a:agent:y', {});
    await new Promise((r) => setImmediate(r));
    release!();
    const [a1, a2] = await Promise.all([p1, p2]);
    expect(calls).toEqual(['a:agent:y']);
    expect(a1).toBe(a2);
  });

  it('should cache NOT_FOUND as null and rethrow other errors', async () => {
    const notFound = Object.assign(new Error('nf'), { code: status.NOT_FOUND, metadata: new Metadata() });
    const down = Object.assign(new Error('down'), { code: status.UNAVAILABLE, metadata: new Metadata() });
    let fail: Error = notFound;
    const sut = new AgentCache(async () => { calls.push('x'); throw fail; }, 10_000, 100, () => now);
    expect(await sut.get('a:agent:z', {})).toBeNull();
    expect(await sut.get('a:agent:z', {})).toBeNull();
    expect(calls).toHaveLength(1);
    fail = down;
    await expect(sut.get('a:agent:w', {})).rejects.toBe(down);
  });

  it('should let put() refresh an entry and evict the oldest beyond maxEntries', async () => {
    const sut = new AgentCache(lookup, 10_000, 2, () => now);
    sut.put(agent('a:agent:1', identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC));
    sut.put(agent('a:agent:2'));
    sut.put(agent('a:agent:3'));
    expect(sut.size).toBe(2);
    expect((await sut.get('a:agent:3', {}))?.agentId).toBe('a:agent:3');
    expect(calls).toEqual([]);
    await sut.get('a:agent:1', {});
    expect(calls).toEqual(['a:agent:1']);
  });

  it('should peek only at known agents stored within the given age', async () => {
    const sut = new AgentCache(lookup, 10_000, 100, () => now);
    sut.put(agent('a:agent:1'));
    expect(sut.peek('a:agent:1', 1000)?.agentId).toBe('a:agent:1');
    now += 1001;
    expect(sut.peek('a:agent:1', 1000)).toBeUndefined();
    expect(sut.peek('a:agent:1', 5000)?.agentId).toBe('a:agent:1');
    expect(sut.peek('a:agent:2', 1000)).toBeUndefined();
    sut.invalidate('a:agent:1');
    expect(sut.peek('a:agent:1', 5000)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('should not let an older answer replace a newer agent, nor "unknown" replace a known one; refresh only cached agents', async () => {
    const sut = new AgentCache(async () => { calls.push('x'); return undefined; }, 10_000, 100, () => now);
    const frozen = { ...agent('a:agent:1'), status: identityV1.AgentStatus.AGENT_STATUS_FROZEN, updatedAt: new Date(2000) };
    sut.put(frozen);
    sut.put({ ...agent('a:agent:1'), updatedAt: new Date(1000) }); // a verification answered before the freeze
    expect(sut.peek('a:agent:1', 1000)?.status).toBe(identityV1.AgentStatus.AGENT_STATUS_FROZEN);
    const unfrozen = { ...agent('a:agent:1'), updatedAt: new Date(3000) };
    sut.put(unfrozen);
    expect(sut.peek('a:agent:1', 1000)).toBe(unfrozen);
    sut.refresh({ ...agent('a:agent:2'), updatedAt: new Date(1000) }); // an event about an agent not cached
    expect(sut.peek('a:agent:2', 1000)).toBeUndefined();
    const revoked = { ...agent('a:agent:1'), keys: [], updatedAt: new Date(4000) };
    sut.refresh(revoked);
    expect(sut.peek('a:agent:1', 1000)).toBe(revoked);
    now += 20_000; // expired: a lookup answering "unknown" is stored again
    expect(await sut.get('a:agent:1', {})).toBeNull();
  });

  it('should not store an answer older than an identity event, even for an agent it did not hold', async () => {
    const sut = new AgentCache(lookup, 10_000, 2, () => now);
    release = () => undefined; // hold lookups until released
    const pending = sut.get('a:agent:1', {}); // leaves identity before the freeze (updatedAt 0)
    await Promise.resolve();
    const frozen = { ...agent('a:agent:1'), status: identityV1.AgentStatus.AGENT_STATUS_FROZEN, updatedAt: new Date(2000) };
    sut.refresh(frozen); // the event: not cached, so nothing stored, but remembered
    expect(sut.peek('a:agent:1', 1000)).toBeUndefined();
    release();
    expect((await pending)?.status).toBe(identityV1.AgentStatus.AGENT_STATUS_ACTIVE); // the caller gets identity's answer…
    expect(sut.peek('a:agent:1', 1000)).toBeUndefined(); // …but the cache does not keep it
    sut.put({ ...agent('a:agent:1'), updatedAt: new Date(1000) }); // nor a verification answered before the event
    expect(sut.peek('a:agent:1', 1000)).toBeUndefined();
    sut.refresh({ ...agent('a:agent:1'), updatedAt: new Date(500) }); // a replayed older event lowers nothing
    sut.put({ ...agent('a:agent:1'), updatedAt: new Date(1000) });
    expect(sut.peek('a:agent:1', 1000)).toBeUndefined();
    sut.put(frozen); // the change itself, or anything newer, is stored
    expect(sut.peek('a:agent:1', 1000)).toBe(frozen);
    // Bounded: remembering two more agents forgets the first (maxEntries 2).
    sut.refresh({ ...agent('a:agent:2'), updatedAt: new Date(2000) });
    sut.refresh({ ...agent('a:agent:3'), updatedAt: new Date(2000) });
    now += 20_000;
    sut.put({ ...agent('a:agent:1'), updatedAt: new Date(1000) });
    expect(sut.peek('a:agent:1', 1000)?.updatedAt).toEqual(new Date(1000));
  });

  it('should not cache at all with a zero TTL', async () => {
    const sut = new AgentCache(lookup, 0, 100, () => now);
    await sut.get('a:agent:x', {});
    await sut.get('a:agent:x', {});
    expect(calls).toHaveLength(2);
  });
});

describe('AgentCache.read (identity now, concurrent reads sharing a call)', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  /** A lookup whose calls wait until answered (status, updatedAt) or failed by the test. */
  function heldIdentity() {
    const calls: Array<{ agentId: string; answer(status: identityV1.AgentStatus, updatedAt?: number): void; fail(err: Error): void }> = [];
    const lookup = (agentId: string) =>
      new Promise<identityV1.Agent | undefined>((resolve, reject) => {
        calls.push({ agentId, answer: (status, updatedAt = 0) => resolve({ ...agent(agentId), status, updatedAt: new Date(updatedAt) }), fail: reject });
      });
    return { calls, lookup };
  }
  const { AGENT_STATUS_ACTIVE: ACTIVE, AGENT_STATUS_FROZEN: FROZEN } = identityV1.AgentStatus;

  it('shares one call among concurrent reads of an agent, and calls again once it is answered', async () => {
    const identity = heldIdentity();
    const sut = new AgentCache(identity.lookup, 10_000, 100, now);
    const waiting = [sut.read('a', {}, 2_000), sut.read('a', {}, 2_000), sut.read('b', {}, 2_000)];
    expect(identity.calls.map((c) => c.agentId)).toEqual(['a', 'b']);
    identity.calls[0].answer(ACTIVE);
    identity.calls[1].answer(ACTIVE);
    expect((await Promise.all(waiting)).map((a) => a?.status)).toEqual([ACTIVE, ACTIVE, ACTIVE]);
    void sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(3);
    expect([sut.peek('a', 1_000)?.status, sut.peek('b', 1_000)?.status]).toEqual([ACTIVE, ACTIVE]);
  });

  it('shares a failure with the reads that joined, and keeps nothing of it', async () => {
    const identity = heldIdentity();
    const sut = new AgentCache(identity.lookup, 10_000, 100, now);
    const waiting = [sut.read('a', {}, 2_000), sut.read('a', {}, 2_000)];
    identity.calls[0].fail(new Error('unavailable'));
    for (const read of waiting) await expect(read).rejects.toThrow('unavailable');
    const next = sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer(ACTIVE);
    expect((await next)?.status).toBe(ACTIVE);
  });

  it('does not join a call started longer ago than maxJoinAgeMs', async () => {
    const identity = heldIdentity();
    const sut = new AgentCache(identity.lookup, 10_000, 100, now);
    void sut.read('a', {}, 2_000);
    clock += 2_000;
    void sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(1);
    clock += 1;
    const late = sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer(FROZEN);
    expect((await late)?.status).toBe(FROZEN);
  });

  it('after an identity event, a new read makes its own call and the overtaken answer is not stored', async () => {
    const identity = heldIdentity();
    const sut = new AgentCache(identity.lookup, 10_000, 100, now);
    const before = sut.read('a', {}, 2_000);
    sut.refresh({ ...agent('a'), status: FROZEN, updatedAt: new Date(2_000) }); // not cached: nothing stored
    const after = sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(2);
    identity.calls[0].answer(ACTIVE, 0);
    expect((await before)?.status).toBe(ACTIVE);
    expect(sut.peek('a', 1_000)).toBeUndefined();
    // The overtaken call ending leaves the newer call's entry: a read now joins that one.
    const joiner = sut.read('a', {}, 2_000);
    expect(identity.calls).toHaveLength(2);
    identity.calls[1].answer(FROZEN, 2_000);
    expect([(await after)?.status, (await joiner)?.status]).toEqual([FROZEN, FROZEN]);
    expect(sut.peek('a', 1_000)?.status).toBe(FROZEN);
  });

  it('with maxJoinAgeMs 0, makes one call per read and stores the answers', async () => {
    const identity = heldIdentity();
    const sut = new AgentCache(identity.lookup, 10_000, 100, now);
    const waiting = [sut.read('a', {}, 0), sut.read('a', {}, 0)];
    expect(identity.calls).toHaveLength(2);
    identity.calls.forEach((c) => c.answer(ACTIVE));
    await Promise.all(waiting);
    expect(sut.peek('a', 1_000)?.status).toBe(ACTIVE);
  });
});

describe('AgentCache.of', () => {
  it("should look agents up with identity's GetAgent, keeping unknown ones as null for the TTL", async () => {
    const identity = await startFakeIdentity([{ agentId: 'a:agent:known', level: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC }]);
    const client = createServiceClient(identityV1.IdentityServiceService, identity.address);
    try {
      const sut = AgentCache.of(client, 10_000);
      expect(await sut.get('a:agent:known', { requestId: 'req_1' })).toMatchObject({ agentId: 'a:agent:known', identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC });
      expect(await sut.get('a:agent:none', {})).toBeNull();
      expect(await sut.get('a:agent:none', {})).toBeNull();
      expect(identity.calls['GetAgent']).toBe(2);
    } finally {
      client.close();
      await identity.close();
    }
  });
});
