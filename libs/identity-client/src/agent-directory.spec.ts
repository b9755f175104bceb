import { status } from '@grpc/grpc-js';
import { createServiceClient, errors } from '@exchange/platform';
import { generateKeyPair, sign, toBase64 } from '@exchange/crypto';
import { identityV1 } from '@exchange/proto';
import { startFakeIdentity, startProtoFake, testLogger, type FakeIdentity } from '@exchange/testing';
import { PER_ID_FALLBACK_MS } from './agent-batcher';
import { AgentDirectory, type AgentInfo, type IdentityClient } from './agent-directory';

const agent = (agentId: string, frozen = false): identityV1.Agent => ({
  agentId,
  primaryPubkey: '',
  keys: [],
  identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
  status: frozen ? identityV1.AgentStatus.AGENT_STATUS_FROZEN : identityV1.AgentStatus.AGENT_STATUS_ACTIVE,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('AgentDirectory', () => {
  let identity: FakeIdentity;
  let client: IdentityClient;
  const keys = generateKeyPair();
  beforeAll(async () => {
    identity = await startFakeIdentity([{ agentId: 'a:1', pubkeys: [toBase64(keys.publicKey)] }, { agentId: 'a:frozen', frozen: true }]);
    client = createServiceClient(identityV1.IdentityServiceService, identity.address);
  });
  afterAll(async () => {
    client.close();
    await identity.close();
  });

  it('should reuse an answer within the TTL and ask again after it', async () => {
    let now = 0;
    const dir = new AgentDirectory(client, 1000, testLogger, () => now);
    const before = identity.calls['GetAgent'] ?? 0;
    await dir.get('a:1');
    await dir.get('a:1');
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(1);
    now = 1001;
    await dir.get('a:1');
    expect((identity.calls['GetAgent'] ?? 0) - before).toBe(2);
  });

  it('should map unknown agents to 404 agent_not_found and frozen ones to 403 agent_frozen', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    await expect(dir.active('a:none')).rejects.toMatchObject({ code: 'agent_not_found' });
    await expect(dir.active('a:frozen')).rejects.toMatchObject({ code: 'agent_frozen' });
    await expect(dir.active('a:1')).resolves.toEqual({ agentId: 'a:1', frozen: false, level: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED });
  });

  it('should verify a signature with a key of the agent only', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    const message = Buffer.from('hello', 'utf8');
    expect(await dir.verifySignature('a:1', message, toBase64(sign(message, keys.privateKey)))).toBe(toBase64(keys.publicKey));
    expect(await dir.verifySignature('a:1', message, toBase64(sign(message, generateKeyPair().privateKey)))).toBeNull();
    expect(await dir.verifySignature('a:none', message, toBase64(sign(message, keys.privateKey)))).toBeNull();
  });

  it('should ask identity on every current() lookup and refresh the cache with the answer', async () => {
    let now = 0;
    const dir = new AgentDirectory(client, 1000, testLogger, () => now);
    const asked = () => (identity.calls['GetAgent'] ?? 0) + (identity.calls['GetAgents'] ?? 0);
    const before = asked();
    await dir.get('a:1');
    await dir.current('a:1');
    await dir.current('a:1');
    expect(asked() - before).toBe(3);
    now = 999;
    await dir.get('a:1'); // cached by the last current()
    expect(asked() - before).toBe(3);
  });

  it('should map the agent with the mapping given', async () => {
    const dir = new AgentDirectory(client, 0, testLogger, Date.now, (a) => ({ agentId: a.agentId, frozen: false, keys: a.keys.length }));
    await expect(dir.get('a:1')).resolves.toEqual({ agentId: 'a:1', frozen: false, keys: 1 });
  });

  it('should answer 503 identity_unavailable when identity is down', async () => {
    const down = createServiceClient(identityV1.IdentityServiceService, '127.0.0.1:1');
    const dir = new AgentDirectory(down, 0, testLogger);
    await expect(dir.get('a:1')).rejects.toMatchObject({ code: 'identity_unavailable' });
    down.close();
  });
});

describe('AgentDirectory.current: one GetAgents per batch of concurrent lookups', () => {
  let identity: FakeIdentity;
  let client: IdentityClient;
  const ids = (...names: string[]) => names.map((n) => `b:agent:${n}`);
  const calls = (name: string) => identity.calls[name] ?? 0;
  const nextTicks = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  beforeAll(async () => {
    identity = await startFakeIdentity(ids('1', '2', '3').map((agentId) => ({ agentId })));
    client = createServiceClient(identityV1.IdentityServiceService, identity.address);
  });
  afterEach(() => {
    identity.onGetAgents = null;
  });
  afterAll(async () => {
    client.close();
    await identity.close();
  });

  it('should send the lookups of one tick as one GetAgents, each id once, and no GetAgent', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    const [batches, single] = [identity.batches.length, calls('GetAgent')];
    const [a, b, c] = ids('1', '2', '3');
    const answers = await Promise.all([dir.current(a), dir.current(b), dir.current(a), dir.current(c)]);
    expect(answers.map((x) => x.agentId)).toEqual([a, b, a, c]);
    expect(identity.batches.slice(batches)).toEqual([[a, b, c]]);
    expect(calls('GetAgent')).toBe(single);
  });

  it('should not answer a lookup made while a batch is in flight with that batch: it sees a freeze made meanwhile', async () => {
    const [id] = ids('late');
    identity.put({ agentId: id });
    // Sends counted as they leave the client (arrivals at identity lag behind them).
    const sent: string[][] = [];
    const counting = {
      getAgents: (req: identityV1.GetAgentsRequest) => {
        sent.push([...req.agentIds]);
        return client.getAgents(req);
      },
    } as unknown as IdentityClient;
    const dir = new AgentDirectory(counting, 0, testLogger);
    let entered: () => void = () => undefined;
    let release: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    identity.onGetAgents = async () => {
      identity.onGetAgents = null; // only the first batch is held
      entered();
      await held;
    };
    const batches = identity.batches.length;
    const early = dir.current(id);
    await inFlight; // identity has read the agent (active) and holds its answer
    const late = dir.current(id);
    await nextTicks(5);
    expect(sent).toEqual([[id]]); // the late lookup waits for the batch out: not sent yet
    expect(identity.batches.length - batches).toBe(1);
    identity.freeze(id);
    release();
    expect((await early).frozen).toBe(false);
    expect((await late).frozen).toBe(true);
    expect(identity.batches.slice(batches)).toEqual([[id], [id]]);
    expect(sent).toEqual([[id], [id]]);
  });

  it('should answer agent_not_found to the caller of an unknown id only', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    const batches = identity.batches.length;
    const [a, b] = ids('1', '2');
    const [first, unknown, second] = await Promise.allSettled([dir.current(a), dir.current('b:agent:nobody'), dir.current(b)]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { agentId: a } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { agentId: b } });
    expect(unknown).toMatchObject({ status: 'rejected', reason: { grpcCode: status.NOT_FOUND, code: 'agent_not_found' } });
    expect(identity.batches.length - batches).toBe(1);
  });

  it('should answer identity_unavailable to every caller of a failed batch, log it once, and send the next batch', async () => {
    const logger = testLogger.child({});
    const warn = jest.spyOn(logger, 'warn');
    const dir = new AgentDirectory(client, 0, logger);
    identity.onGetAgents = () => {
      identity.onGetAgents = null;
      throw errors.unavailable('db_down', 'identity database unavailable (test)');
    };
    const [a, b] = ids('1', '2');
    const failed = await Promise.allSettled([dir.current(a), dir.current(b), dir.current(a)]);
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'fulfilled'))).toEqual([
      'identity_unavailable',
      'identity_unavailable',
      'identity_unavailable',
    ]);
    expect(failed[0]).toMatchObject({ reason: { grpcCode: status.UNAVAILABLE } });
    expect(warn).toHaveBeenCalledTimes(1);
    await expect(dir.current(a)).resolves.toMatchObject({ agentId: a });
  });

  it('should split a batch of more than 1000 ids into GetAgents calls of at most 1000', async () => {
    const dir = new AgentDirectory(client, 0, testLogger);
    const batches = identity.batches.length;
    const many = [...ids('1'), ...Array.from({ length: 2498 }, (_, i) => `b:agent:n${i}`), ...ids('2')];
    const settled = await Promise.allSettled(many.map((id) => dir.current(id)));
    // The three calls run concurrently: their arrival order at identity is not part of the contract.
    expect(identity.batches.slice(batches).map((b) => b.length).sort((x, y) => x - y)).toEqual([500, 1000, 1000]);
    expect(identity.batches.slice(batches).flat().sort()).toEqual([...many].sort());
    expect(settled.filter((r) => r.status === 'fulfilled').map((r) => r.value.agentId)).toEqual(ids('1', '2'));
    expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(2498);
  });
});

describe('AgentDirectory.current against an identity without GetAgents (rolling upgrade)', () => {

  it('should fall back to GetAgent per id for that batch, remember it for a while (warning once), then try GetAgents again', async () => {
    const old = await startProtoFake(
      identityV1.IdentityServiceService,
      {
        getAgent: ({ agentId }) => {
          if (agentId === 'o:agent:nobody') throw errors.notFound('agent', agentId);
          if (agentId === 'o:agent:MALFORMED') throw errors.invalidArgument('validation_failed', 'agent_id is malformed');
          if (agentId === 'o:agent:down') throw errors.unavailable('db_down', 'identity database unavailable (test)');
          return { agent: agent(agentId, agentId === 'o:agent:frozen') };
        },
      },
      { missing: 'unimplemented' },
    );
    const oldClient = createServiceClient(identityV1.IdentityServiceService, old.address);
    try {
      let now = 0;
      const logger = testLogger.child({});
      const warn = jest.spyOn(logger, 'warn');
      const dir = new AgentDirectory(oldClient, 0, logger, () => now);
      const first = await Promise.allSettled([dir.current('o:agent:a'), dir.current('o:agent:frozen'), dir.current('o:agent:nobody')]);
      expect(first[0]).toMatchObject({ status: 'fulfilled', value: { agentId: 'o:agent:a', frozen: false } });
      expect(first[1]).toMatchObject({ status: 'fulfilled', value: { agentId: 'o:agent:frozen', frozen: true } });
      expect(first[2]).toMatchObject({ status: 'rejected', reason: { code: 'agent_not_found' } });
      expect([old.log.count('getAgents'), old.log.count('getAgent')]).toEqual([1, 3]);

      now = PER_ID_FALLBACK_MS - 1; // remembered: straight to GetAgent
      await Promise.all([dir.current('o:agent:a'), dir.current('o:agent:b')]);
      expect([old.log.count('getAgents'), old.log.count('getAgent')]).toEqual([1, 5]);

      now = PER_ID_FALLBACK_MS; // identity may have been upgraded since: asked again
      await dir.current('o:agent:a');
      expect([old.log.count('getAgents'), old.log.count('getAgent')]).toEqual([2, 6]);
      expect(warn).toHaveBeenCalledTimes(1);

      // Per id, a failure means what it means to get(): unknown (404) or identity down (503, logged).
      const [malformed, down] = await Promise.allSettled([dir.current('o:agent:MALFORMED'), dir.current('o:agent:down')]);
      expect(malformed).toMatchObject({ status: 'rejected', reason: { grpcCode: status.NOT_FOUND, code: 'agent_not_found' } });
      expect(down).toMatchObject({ status: 'rejected', reason: { grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' } });
      expect(warn.mock.calls.slice(1).map((call) => call[1])).toEqual(['identity lookup failed']);
    } finally {
      oldClient.close();
      await old.stop();
    }
  });
});

describe('AgentDirectory: every caller answered with its documented errors, whatever fails', () => {
  /** The outcome of `p`, or 'unanswered' when it has not settled within `ms`. */
  const within = <T>(p: Promise<T>, ms = 2000) =>
    Promise.race([
      p.then(
        (value) => ({ value }),
        (reason: { code?: string }) => ({ code: reason.code }),
      ),
      new Promise<'unanswered'>((resolve) => setTimeout(() => resolve('unanswered'), ms).unref()),
    ]);

  it('should answer 503 to every caller of a chunk that fails unexpectedly (a throwing logger) and still send the next batch after the others', async () => {
    const logger = testLogger.child({});
    jest.spyOn(logger, 'warn').mockImplementationOnce(() => {
      throw new Error('logger broken (test)');
    });
    const error = jest.spyOn(logger, 'error');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const asked: string[][] = [];
    const client = {
      getAgents: async ({ agentIds }: { agentIds: string[] }) => {
        asked.push(agentIds);
        // The chunk holding u:agent:0 fails (its warning then throws); the other one is held.
        if (agentIds.includes('u:agent:0')) throw errors.unavailable('db_down', 'identity database unavailable (test)');
        await held;
        return { agents: agentIds.map((id) => agent(id)) };
      },
    } as unknown as IdentityClient;
    const dir = new AgentDirectory(client, 0, logger);
    const ids = Array.from({ length: 1001 }, (_, i) => `u:agent:${i}`);
    const lookups = ids.map((id) => dir.current(id));

    const failedChunk = await Promise.all(lookups.slice(0, 1000).map((p) => within(p)));
    expect(new Set(failedChunk.map((r) => (r !== 'unanswered' && 'code' in r ? r.code : r)))).toEqual(new Set(['identity_unavailable']));
    expect(error).toHaveBeenCalledTimes(1);
    const late = dir.current('u:agent:late'); // made while the other chunk is out: waits for it
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.map((chunk) => chunk.length).sort((x, y) => x - y)).toEqual([1, 1000]);

    release();
    expect(await within(lookups[1000])).toEqual({ value: expect.objectContaining({ agentId: 'u:agent:1000' }) });
    expect(await within(late)).toEqual({ value: expect.objectContaining({ agentId: 'u:agent:late' }) });
    expect(asked).toHaveLength(3);
  });

  it('should answer 503 identity_unavailable, logged, when the mapping throws, from current() as from get()', async () => {
    const identity = await startFakeIdentity([{ agentId: 'm:agent:1' }]);
    const client = createServiceClient(identityV1.IdentityServiceService, identity.address);
    try {
      const logger = testLogger.child({});
      const error = jest.spyOn(logger, 'error');
      const dir = new AgentDirectory(client, 0, logger, Date.now, (): AgentInfo => {
        throw new TypeError('mapping bug (test)');
      });
      await expect(dir.current('m:agent:1')).rejects.toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' });
      await expect(dir.get('m:agent:1')).rejects.toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'identity_unavailable' });
      expect(error.mock.calls.map((call) => call[1])).toEqual(['identity agent mapping failed', 'identity agent mapping failed']);
      // An unknown agent is still 404: the mapping is not reached.
      await expect(dir.current('m:agent:nobody')).rejects.toMatchObject({ code: 'agent_not_found' });
    } finally {
      client.close();
      await identity.close();
    }
  });
});
