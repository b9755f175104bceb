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
