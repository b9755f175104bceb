import { InProcessEventBus, newEvent } from '@exchange/events';
import { identityV1, identityV1Events } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import { expectProblem, operator, registerAgent, signedRequest, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The gateway verifies agent signatures against the agent cache (AGENT_KEY_CACHE_TTL_MS): a
// cached agent's active keys verify without asking identity; a change made through this gateway
// (freeze, unfreeze, revocation) replaces the entry before the answer, and identity's agent
// events replace it for changes made elsewhere. TTLs are long here, so nothing below depends on
// the clock: only the events and this gateway's own answers change what is cached.

let h: Harness;
let bus: InProcessEventBus;
const wallet = (agent: TestAgent, rest = '') => `/v1/wallets/${agent.agentId}${rest}`;
const faucet = (agent: TestAgent, n: number) => signedRequest(h.app, agent, 'POST', wallet(agent, '/faucet'), { amount: '1', category: 'testing', idempotency_key: `k-${n}-${Math.random()}` });
const callsOf = (harness: Harness, method: string) => harness.identity.calls.filter((c) => c.method === method).length;
const verifyCalls = () => callsOf(h, 'verifyAgentSignature');

beforeAll(async () => {
  bus = new InProcessEventBus({ logger: testLogger });
  h = await startHarness({ env: { AGENT_CACHE_TTL_MS: '600000', AGENT_KEY_CACHE_TTL_MS: '600000' }, events: bus });
});

afterAll(async () => {
  await h.close();
  await bus.close();
});

/** What identity publishes after a change: the agent as it now is. */
async function publishFrozen(agent: identityV1.Agent) {
  const data = identityV1Events.AgentFrozen.toJSON({ agent, reason: 'elsewhere' });
  await bus.publish(newEvent({ type: 'exchange.identity.agent.frozen', source: 'identity', subjectId: agent.agentId, data }));
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe('agent signatures verified against the agent cache', () => {
  it('should ask identity once, then verify the same agent locally', async () => {
    const alice = new TestAgent(uniqueAgentId('alice'));
    await registerAgent(h.app, alice);
    const before = verifyCalls();
    for (let i = 0; i < 3; i++) expect((await signedRequest(h.app, alice, 'GET', `/v1/agents/${alice.agentId}`)).statusCode).toBe(200);
    expect(verifyCalls()).toBe(before); // the registration through this gateway cached it
  });

  it('should ask identity about a signature no cached key verifies (a key it does not know yet, a forger)', async () => {
    const bob = new TestAgent(uniqueAgentId('bob'));
    await registerAgent(h.app, bob);
    const forger = new TestAgent(bob.agentId);
    const before = verifyCalls();
    expectProblem(await signedRequest(h.app, forger, 'GET', `/v1/agents/${bob.agentId}`), 403, 'agent_signature_invalid');
    expect(verifyCalls()).toBe(before + 1);
  });

  it('should ask identity when the cached entry is replaced while the local check runs (an identity event meanwhile)', async () => {
    const lena = new TestAgent(uniqueAgentId('lena'));
    await registerAgent(h.app, lena);
    const cache = h.app.agentCache;
    const peek = cache.peek.bind(cache);
    let armed = true;
    // The first look-up hands out the entry, then replaces it as an event handled during the check would.
    const spy = jest.spyOn(cache, 'peek').mockImplementation((id, maxAgeMs) => {
      const found = peek(id, maxAgeMs);
      if (armed && id === lena.agentId && found) {
        armed = false;
        cache.put(structuredClone(found));
      }
      return found;
    });
    const before = verifyCalls();
    try {
      expect((await signedRequest(h.app, lena, 'GET', `/v1/agents/${lena.agentId}`)).statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect([armed, verifyCalls()]).toEqual([false, before + 1]);
  });

  it('should refuse a signed mutation at once after a freeze through this gateway, and accept it after the unfreeze', async () => {
    const carol = new TestAgent(uniqueAgentId('carol'));
    await registerAgent(h.app, carol);
    expect((await faucet(carol, 1)).statusCode).toBe(201);
    expect((await h.app.inject({ method: 'POST', url: `/v1/agents/${carol.agentId}/freeze`, headers: operator(), payload: { reason: 'review' } })).statusCode).toBe(200);
    expectProblem(await faucet(carol, 2), 403, 'agent_frozen');
    expect((await h.app.inject({ method: 'POST', url: `/v1/agents/${carol.agentId}/unfreeze`, headers: operator(), payload: { reason: 'ok' } })).statusCode).toBe(200);
    expect((await faucet(carol, 3)).statusCode).toBe(201);
  });

  it('should refuse a revoked key at once after the revocation through this gateway', async () => {
    const dave = new TestAgent(uniqueAgentId('dave'));
    const spare = new TestAgent(dave.agentId);
    await registerAgent(h.app, dave, { pubkey_set: [spare.publicKey] });
    const url = `/v1/agents/${dave.agentId}`;
    expect((await signedRequest(h.app, spare, 'GET', url)).statusCode).toBe(200);
    const revoke = await h.app.inject({ method: 'POST', url: `${url}/keys/${encodeURIComponent(spare.publicKey)}/revoke`, headers: operator(), payload: { reason: 'lost' } });
    expect(revoke.statusCode).toBe(200);
    expectProblem(await signedRequest(h.app, spare, 'GET', url), 403, 'agent_signature_invalid');
    expect((await signedRequest(h.app, dave, 'GET', url)).statusCode).toBe(200);
  });

  it("should apply a freeze made elsewhere (another replica) when identity's event arrives", async () => {
    const erin = new TestAgent(uniqueAgentId('erin'));
    await registerAgent(h.app, erin);
    expect((await faucet(erin, 1)).statusCode).toBe(201);
    // Frozen in identity directly, not through this gateway: its cache still says active.
    const stored = h.identity.agents.get(erin.agentId)!;
    stored.status = identityV1.AgentStatus.AGENT_STATUS_FROZEN;
    stored.updatedAt = new Date(stored.updatedAt!.getTime() + 1000);
    expect((await faucet(erin, 2)).statusCode).toBe(201);
    await publishFrozen(structuredClone(stored));
    await until(() => h.app.agentCache.peek(erin.agentId, 600_000)?.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN);
    expectProblem(await faucet(erin, 3), 403, 'agent_frozen');
  });

  it('should not bring back an agent the cache does not hold from an event (replayed history)', async () => {
    const frank = new TestAgent(uniqueAgentId('frank'));
    await registerAgent(h.app, frank);
    const old = structuredClone(h.identity.agents.get(frank.agentId)!);
    h.app.agentCache.invalidate(frank.agentId);
    await publishFrozen({ ...old, status: identityV1.AgentStatus.AGENT_STATUS_FROZEN });
    // A later event for a cached agent: once it shows, the listener has handled frank's (in order).
    const marker = new TestAgent(uniqueAgentId('marker'));
    await registerAgent(h.app, marker);
    const markerStored = structuredClone(h.identity.agents.get(marker.agentId)!);
    markerStored.updatedAt = new Date(markerStored.updatedAt!.getTime() + 1000);
    await publishFrozen({ ...markerStored, status: identityV1.AgentStatus.AGENT_STATUS_FROZEN });
    await until(() => h.app.agentCache.peek(marker.agentId, 600_000)?.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN);
    const before = verifyCalls();
    expect((await signedRequest(h.app, frank, 'GET', `/v1/agents/${frank.agentId}`)).statusCode).toBe(200);
    expect(verifyCalls()).toBe(before + 1); // not cached: identity was asked
  });
});

describe('GET /v1/agents/{id} from the agent cache', () => {
  const getAgentCalls = () => callsOf(h, 'getAgent');
  const read = async (agent: TestAgent) => {
    const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}`, headers: operator() });
    expect(res.statusCode).toBe(200);
    return res.json() as { agent_id: string; status: string };
  };

  it("should answer from identity's cached answer, and show a change through this gateway at once", async () => {
    const hana = new TestAgent(uniqueAgentId('hana'));
    await registerAgent(h.app, hana);
    const before = getAgentCalls();
    expect(await read(hana)).toMatchObject({ agent_id: hana.agentId, status: 'active' });
    expect(await read(hana)).toMatchObject({ status: 'active' });
    expect(getAgentCalls()).toBe(before); // the registration cached identity's answer
    expect((await h.app.inject({ method: 'POST', url: `/v1/agents/${hana.agentId}/freeze`, headers: operator(), payload: { reason: 'review' } })).statusCode).toBe(200);
    expect(await read(hana)).toMatchObject({ status: 'frozen' });
    expect(getAgentCalls()).toBe(before);
  });

  it("should show a change made elsewhere once identity's event arrives", async () => {
    const ivan = new TestAgent(uniqueAgentId('ivan'));
    await registerAgent(h.app, ivan);
    const stored = h.identity.agents.get(ivan.agentId)!;
    stored.status = identityV1.AgentStatus.AGENT_STATUS_FROZEN;
    stored.updatedAt = new Date(stored.updatedAt!.getTime() + 1000);
    await publishFrozen(structuredClone(stored));
    await until(() => h.app.agentCache.peek(ivan.agentId, 600_000)?.status === identityV1.AgentStatus.AGENT_STATUS_FROZEN);
    const before = getAgentCalls();
    expect(await read(ivan)).toMatchObject({ status: 'frozen' });
    expect(getAgentCalls()).toBe(before); // from the cache the event refreshed, not from identity
  });

  it('should ask identity for an agent it does not hold, then keep the answer', async () => {
    const jane = new TestAgent(uniqueAgentId('jane'));
    await registerAgent(h.app, jane);
    h.app.agentCache.invalidate(jane.agentId);
    const before = getAgentCalls();
    await read(jane);
    await read(jane);
    expect(getAgentCalls()).toBe(before + 1);
    expectProblem(await h.app.inject({ method: 'GET', url: `/v1/agents/${uniqueAgentId('nobody')}`, headers: operator() }), 404, 'agent_not_found');
  });

  it('should send one GetAgent for concurrent reads of an agent it does not hold, and one per read after it', async () => {
    const kate = new TestAgent(uniqueAgentId('kate'));
    await registerAgent(h.app, kate);
    h.app.agentCache.invalidate(kate.agentId);
    const before = getAgentCalls();
    const answers = await Promise.all(Array.from({ length: 5 }, () => read(kate)));
    expect(answers.map((a) => a.agent_id)).toEqual(Array(5).fill(kate.agentId));
    expect(getAgentCalls()).toBe(before + 1);
    // Not a cache of its own: once the call is answered, a later miss asks again.
    h.app.agentCache.invalidate(kate.agentId);
    await read(kate);
    expect(getAgentCalls()).toBe(before + 2);
  });

  it("should not let a read started after identity's event take the answer of a call made before it", async () => {
    const lou = new TestAgent(uniqueAgentId('lou'));
    await registerAgent(h.app, lou);
    h.app.agentCache.invalidate(lou.agentId);
    const real = h.app.identity.getAgent;
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    let answered = false;
    // The first GetAgent is answered by identity (active), then held on its way back.
    const getAgent = jest.spyOn(h.app.identity, 'getAgent').mockImplementation(async (req, opts) => {
      const res = await real(req, opts);
      if (!answered) {
        answered = true;
        await held;
      }
      return res;
    });
    const refresh = jest.spyOn(h.app.agentCache, 'refresh');
    try {
      const first = read(lou);
      await until(() => answered);
      const stored = h.identity.agents.get(lou.agentId)!;
      stored.status = identityV1.AgentStatus.AGENT_STATUS_FROZEN;
      stored.updatedAt = new Date(stored.updatedAt!.getTime() + 1000);
      await publishFrozen(structuredClone(stored));
      await until(() => refresh.mock.calls.some(([a]) => a.agentId === lou.agentId));
      const second = read(lou);
      release();
      expect([(await first).status, (await second).status]).toEqual(['active', 'frozen']);
      expect((await read(lou)).status).toBe('frozen'); // the held answer did not replace the newer one
    } finally {
      release();
      getAgent.mockRestore();
      refresh.mockRestore();
    }
  });

  it('should share a refusal among the reads that joined it (an unknown agent: 404 for each)', async () => {
    const nobody = uniqueAgentId('nobody');
    const before = getAgentCalls();
    const answers = await Promise.all(Array.from({ length: 3 }, () => h.app.inject({ method: 'GET', url: `/v1/agents/${nobody}`, headers: operator() })));
    for (const res of answers) expectProblem(res, 404, 'agent_not_found');
    expect(getAgentCalls()).toBe(before + 1);
  });
});

describe('AGENT_KEY_CACHE_TTL_MS=0', () => {
  let own: Harness;
  beforeAll(async () => {
    own = await startHarness({ env: { AGENT_KEY_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await own.close();
  });

  it('should read every agent from identity', async () => {
    const kim = new TestAgent(uniqueAgentId('kim'));
    await registerAgent(own.app, kim);
    const before = callsOf(own, 'getAgent');
    for (let i = 0; i < 2; i++) expect((await own.app.inject({ method: 'GET', url: `/v1/agents/${kim.agentId}`, headers: operator() })).statusCode).toBe(200);
    expect(callsOf(own, 'getAgent')).toBe(before + 2);
    // Concurrent reads too: each its own call, so none gets an answer older than its request.
    const reads = await Promise.all(Array.from({ length: 3 }, () => own.app.inject({ method: 'GET', url: `/v1/agents/${kim.agentId}`, headers: operator() })));
    expect(reads.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(callsOf(own, 'getAgent')).toBe(before + 5);
  });

  it('should have identity verify every signature', async () => {
    const gina = new TestAgent(uniqueAgentId('gina'));
    await registerAgent(own.app, gina);
    const before = callsOf(own, 'verifyAgentSignature');
    for (let i = 0; i < 2; i++) expect((await signedRequest(own.app, gina, 'GET', `/v1/agents/${gina.agentId}`)).statusCode).toBe(200);
    expect(callsOf(own, 'verifyAgentSignature')).toBe(before + 2);
  });
});
