import { status } from '@grpc/grpc-js';
import { DomainError } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import { CachedAgentDirectory, type IdentityClient } from './agent-directory.client';

function agent(agentId: string, frozen = false): identityV1.Agent {
  return {
    agentId,
    primaryPubkey: 'pk',
    keys: [{ pubkey: 'pk', primary: true, status: identityV1.KeyStatus.KEY_STATUS_ACTIVE, addedAt: new Date(0), revokedAt: undefined, revokedReason: undefined }],
    identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED,
    status: frozen ? identityV1.AgentStatus.AGENT_STATUS_FROZEN : identityV1.AgentStatus.AGENT_STATUS_ACTIVE,
    frozenReason: undefined,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

const isNotFound = (err: unknown) => err instanceof DomainError && err.grpcCode === status.NOT_FOUND;

/**
 * A fake identity client: `answer` per agent for GetAgent (`get`) and GetAgents (`current`),
 * counting calls of both. As identity's GetAgents: an agent `answer` does not know (NOT_FOUND) is
 * absent from the answer; any other failure fails the whole call.
 */
function fakeClient(answer: (agentId: string) => Promise<identityV1.Agent>) {
  let calls = 0;
  const client = {
    getAgent: async ({ agentId }: { agentId: string }) => {
      calls++;
      return { agent: await answer(agentId) };
    },
    getAgents: async ({ agentIds }: { agentIds: string[] }) => {
      calls++;
      const found = await Promise.all(agentIds.map((id) => answer(id).catch((err: unknown) => (isNotFound(err) ? null : Promise.reject(err)))));
      return { agents: found.filter((a): a is identityV1.Agent => a !== null) };
    },
  } as unknown as IdentityClient;
  return { client, calls: () => calls };
}

describe('CachedAgentDirectory', () => {
  it('should map identity\'s agent and reuse it within the TTL', async () => {
    let now = 1000;
    let frozen = false;
    const fake = fakeClient(async (id) => agent(id, frozen));
    const directory = new CachedAgentDirectory(fake.client, 500, testLogger, () => now);
    expect(await directory.get('a:agent:b')).toEqual({ agentId: 'a:agent:b', level: 'MAINNET_VERIFIED', frozen: false, pubkeys: ['pk'] });
    frozen = true;
    now += 499;
    expect((await directory.get('a:agent:b')).frozen).toBe(false);
    expect(fake.calls()).toBe(1);
    now += 1;
    expect((await directory.get('a:agent:b')).frozen).toBe(true);
    expect(fake.calls()).toBe(2);
  });

  it('should share one call between concurrent lookups', async () => {
    const fake = fakeClient(async (id) => agent(id));
    const directory = new CachedAgentDirectory(fake.client, 1000, testLogger);
    await Promise.all([directory.get('x:agent:y'), directory.get('x:agent:y'), directory.get('x:agent:y')]);
    expect(fake.calls()).toBe(1);
  });

  it('should ask every time with a TTL of 0', async () => {
    const fake = fakeClient(async (id) => agent(id));
    const directory = new CachedAgentDirectory(fake.client, 0, testLogger);
    await directory.get('x:agent:y');
    await directory.get('x:agent:y');
    expect(fake.calls()).toBe(2);
  });

  it('should ask identity on every current() lookup — a freeze is seen at once — and refresh the cache with it', async () => {
    let frozen = false;
    const fake = fakeClient(async (id) => agent(id, frozen));
    const directory = new CachedAgentDirectory(fake.client, 60_000, testLogger);
    expect((await directory.get('a:agent:b')).frozen).toBe(false);
    frozen = true;
    expect((await directory.get('a:agent:b')).frozen).toBe(false); // cached
    expect((await directory.current('a:agent:b')).frozen).toBe(true);
    expect((await directory.get('a:agent:b')).frozen).toBe(true); // refreshed by current()
    frozen = false;
    expect((await directory.current('a:agent:b')).frozen).toBe(false);
    expect(fake.calls()).toBe(3);
  });

  it('should ask identity once for the current() lookups of one tick, each mapped to the wallet view', async () => {
    const fake = fakeClient(async (id) => agent(id, id === 'a:agent:frozen'));
    const directory = new CachedAgentDirectory(fake.client, 0, testLogger);
    const answers = await Promise.all(['a:agent:b', 'a:agent:frozen', 'a:agent:b'].map((id) => directory.current(id)));
    expect(answers.map((a) => [a.agentId, a.frozen, a.pubkeys])).toEqual([['a:agent:b', false, ['pk']], ['a:agent:frozen', true, ['pk']], ['a:agent:b', false, ['pk']]]);
    expect(fake.calls()).toBe(1);
  });

  it('should answer current() from a GetAgents of its own, not from a get() GetAgent already in flight', async () => {
    let release: (a: identityV1.Agent) => void = () => undefined;
    let calls = 0;
    const client = {
      getAgent: async () => {
        calls++;
        return { agent: await new Promise<identityV1.Agent>((r) => (release = r)) };
      },
      getAgents: async ({ agentIds }: { agentIds: string[] }) => {
        calls++;
        return { agents: agentIds.map((id) => agent(id, true)) };
      },
    } as unknown as IdentityClient;
    const directory = new CachedAgentDirectory(client, 60_000, testLogger);
    const stale = directory.get('a:agent:b'); // started before the freeze
    expect((await directory.current('a:agent:b')).frozen).toBe(true);
    release(agent('a:agent:b', false));
    expect((await stale).frozen).toBe(false);
    expect(calls).toBe(2);
  });

  it('should answer agent_not_found for NOT_FOUND and identity_unavailable for other failures, caching neither', async () => {
    let failure: Error = new DomainError(status.NOT_FOUND, 'agent_not_found', 'nope');
    const fake = fakeClient(async () => {
      throw failure;
    });
    const directory = new CachedAgentDirectory(fake.client, 1000, testLogger);
    await expect(directory.get('x:agent:y')).rejects.toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
    failure = Object.assign(new Error('down'), { code: status.UNAVAILABLE, metadata: undefined });
    await expect(directory.get('x:agent:y')).rejects.toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' });
    expect(fake.calls()).toBe(2);
  });

  it('should answer current() agent_not_found to the caller of an unknown agent only, its batch-mate mapped, in one call', async () => {
    const fake = fakeClient(async (id) => {
      if (id === 'a:agent:nobody') throw new DomainError(status.NOT_FOUND, 'agent_not_found', 'nope');
      return agent(id);
    });
    const directory = new CachedAgentDirectory(fake.client, 0, testLogger);
    const [unknown, known] = await Promise.allSettled([directory.current('a:agent:nobody'), directory.current('a:agent:b')]);
    expect(unknown).toMatchObject({ status: 'rejected', reason: { grpcCode: status.NOT_FOUND, code: 'agent_not_found' } });
    expect(known).toEqual({ status: 'fulfilled', value: { agentId: 'a:agent:b', level: 'MAINNET_VERIFIED', frozen: false, pubkeys: ['pk'] } });
    expect(fake.calls()).toBe(1);
  });

  it('should answer current() identity_unavailable when identity is UNAVAILABLE, and not cache it', async () => {
    let down = true;
    const fake = fakeClient(async (id) => {
      if (down) throw Object.assign(new Error('down'), { code: status.UNAVAILABLE, metadata: undefined });
      return agent(id);
    });
    const directory = new CachedAgentDirectory(fake.client, 60_000, testLogger);
    await expect(directory.current('a:agent:b')).rejects.toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' });
    down = false;
    await expect(directory.get('a:agent:b')).resolves.toMatchObject({ agentId: 'a:agent:b' });
    expect(fake.calls()).toBe(2);
  });
});
