import { describeWithRedis } from '@exchange/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { startFakeIdentity, type FakeIdentity } from './fake-identity';
import { startFakeMarket, type FakeMarket } from './fake-market';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Issue 12 findings 9–12 (DESIGN §3): replayed signatures (X-Agent-Nonce), signatures bound to
// the agent, unauthenticated requests counted against the IP and never the agent they name, and
// failed authentication limited per IP — in memory, in Redis shared by two gateways, and with
// Redis unreachable.

const ATTACKER_IP = '198.51.100.66';
const CONTRACT = JSON.stringify({ title: 'Summarise', budget: { amount: '10', currency: 'CREDIT' }, deadline: '2030-01-01T00:00:00.000Z', acceptance_criteria: 'x' });

type Method = 'GET' | 'POST';

function signedRequest(agent: TestAgent, method: Method, url: string, body = '') {
  const headers: Record<string, string> = agent.signedHeaders(method, url, body);
  if (body !== '') headers['content-type'] = 'application/json';
  return {
    method,
    url,
    headers,
    ...(body === '' ? {} : { payload: body }),
  };
}

const createContractCalls = (market: FakeMarket) => market.calls.filter((c) => c.method === 'createContract').length;
const verifyCalls = (identity: FakeIdentity) => identity.calls.filter((c) => c.method === 'verifyAgentSignature').length;

/** A multipart upload naming `claimed`, signed by a key that is not its own. */
function forgedUpload(claimed: string, remoteAddress: string) {
  const boundary = `----forged${randomBytes(6).toString('hex')}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: text/plain\r\n\r\n${randomBytes(8).toString('hex')}\r\n--${boundary}--\r\n`,
  );
  const forger = new TestAgent(claimed);
  const headers = forger.signedHeaders('POST', '/v1/artifacts', body.toString('latin1'));
  return { method: 'POST' as const, url: '/v1/artifacts', remoteAddress, headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body };
}

describe('replayed agent signatures (memory store)', () => {
  let h: Harness;
  let alice: TestAgent;

  beforeAll(async () => {
    h = await startHarness();
    alice = new TestAgent(uniqueAgentId('alice'));
    await registerAgent(h.app, alice);
  });
  afterAll(async () => {
    await h.close();
  });

  it('should refuse an identical signed POST /v1/contracts with 401 agent_nonce_reused and create nothing the second time', async () => {
    const request = signedRequest(alice, 'POST', '/v1/contracts', CONTRACT);
    const before = createContractCalls(h.market);
    expect((await h.app.inject(request)).statusCode).toBe(201);
    const replay = await h.app.inject(request);
    const problem = expectProblem(replay, 401, 'agent_nonce_reused');
    expect(problem.detail).toContain('X-Agent-Nonce');
    expect(createContractCalls(h.market)).toBe(before + 1);
    // The same contract signed again (a new nonce) is a new request.
    expect((await h.app.inject(signedRequest(alice, 'POST', '/v1/contracts', CONTRACT))).statusCode).toBe(201);
    expect(createContractCalls(h.market)).toBe(before + 2);
  });

  it('should refuse a replayed GET too', async () => {
    const request = signedRequest(alice, 'GET', `/v1/agents/${alice.agentId}`);
    expect((await h.app.inject(request)).statusCode).toBe(200);
    expectProblem(await h.app.inject(request), 401, 'agent_nonce_reused');
  });

  it('should not let a forged signature use up the nonce of the agent it names', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const nonce = randomBytes(16).toString('base64url');
    const forged = new TestAgent(alice.agentId).signedHeaders('GET', url, '', undefined, nonce);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: forged }), 403, 'agent_signature_invalid');
    expect((await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', undefined, nonce) })).statusCode).toBe(200);
  });

  it('should require X-Agent-Nonce of 16–64 URL-safe characters, without asking identity', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const before = verifyCalls(h.identity);
    const { 'x-agent-nonce': _n, ...withoutNonce } = alice.signedHeaders('GET', url);
    const missing = expectProblem(await h.app.inject({ method: 'GET', url, headers: withoutNonce }), 401, 'unauthenticated');
    expect(missing.detail).toBe('agent-signed request is missing X-Agent-Nonce');
    for (const bad of ['too-short-nonce', 'n'.repeat(65), 'has+plus/and=padding==']) {
      expectProblem(await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', undefined, bad) }), 401, 'agent_nonce_invalid');
    }
    expect(verifyCalls(h.identity)).toBe(before);
  });
});

describe('a signature is bound to the agent it names', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('should refuse a signature made for agent A presented with X-Agent-Id B, even when B holds the same key', async () => {
    const a = new TestAgent(uniqueAgentId('a'));
    const b = new TestAgent(uniqueAgentId('b'));
    await registerAgent(h.app, a);
    await registerAgent(h.app, b);
    // A key on two agents cannot be registered any more (409 below); the fake holds it as data
    // from before that rule could.
    h.identity.agents.get(b.agentId)!.keys.push({ ...h.identity.agents.get(a.agentId)!.keys[0]!, primary: false });
    const url = `/v1/agents/${b.agentId}`;
    const madeForA = a.signedHeaders('GET', url);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: { ...madeForA, 'x-agent-id': b.agentId } }), 403, 'agent_signature_invalid');
    // B's own key, and A's key signing as B (it is B's key too), still work.
    expect((await h.app.inject({ method: 'GET', url, headers: b.signedHeaders('GET', url) })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url, headers: new TestAgent(b.agentId, a.privateKey).signedHeaders('GET', url) })).statusCode).toBe(200);
  });

  it('should answer 409 pubkey_in_use when a registration names a key bound to another agent', async () => {
    const owner = new TestAgent(uniqueAgentId('owner'));
    await registerAgent(h.app, owner);
    const reuser = new TestAgent(uniqueAgentId('reuser'), owner.privateKey);
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: reuser.registrationBody() }), 409, 'pubkey_in_use');
    const lister = new TestAgent(uniqueAgentId('lister'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: lister.registrationBody(undefined, { pubkey_set: [owner.publicKey] }) }),
      409,
      'pubkey_in_use',
    );
  });
});

describe('unauthenticated requests count against the IP, never the agent they name', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('should leave the victim’s own budget untouched after 125 forged uploads naming it', async () => {
    const victim = new TestAgent(uniqueAgentId('victim'));
    await registerAgent(h.app, victim);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 125; i++) {
      const status = (await h.app.inject(forgedUpload(victim.agentId, ATTACKER_IP))).statusCode;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // 30 refused as forgeries, the rest refused before any work as the IP's failures piled up.
    expect(Object.fromEntries(statuses)).toEqual({ 403: 30, 429: 95 });
    expect(h.registry.artifacts.size).toBe(0);
    const url = `/v1/agents/${victim.agentId}`;
    const own = await h.app.inject({ method: 'GET', url, headers: victim.signedHeaders('GET', url) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['ratelimit-limit']).toBe('120');
    expect(own.headers['ratelimit-remaining']).toBe('119');
  });

  it('should count a multipart upload against the IP until its signature verified, then against the agent', async () => {
    const uploader = new TestAgent(uniqueAgentId('uploader'));
    await registerAgent(h.app, uploader);
    const boundary = '----genuine0001';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="media_type"\r\n\r\ntext/plain\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/artifacts',
      headers: { ...uploader.signedHeaders('POST', '/v1/artifacts', body), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    // The hook saw an unauthenticated request (the IP's budget of 300)...
    expect(res.headers['ratelimit-limit']).toBe('300');
    // ...and the verified upload was then counted against the agent: its next request is its second.
    const url = `/v1/agents/${uploader.agentId}`;
    const next = await h.app.inject({ method: 'GET', url, headers: uploader.signedHeaders('GET', url) });
    expect(next.headers['ratelimit-remaining']).toBe('118');
  });
});

describe('failed authentication is limited per IP (RATE_LIMIT_AUTH_FAILURES, default 30 a minute)', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('should answer the 31st wrong operator token from one IP 429 with Retry-After, even a right one, and leave other IPs alone', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await h.app.inject({ method: 'GET', url: '/v1/agents', remoteAddress: ATTACKER_IP, headers: { authorization: `Bearer guess-${i}-0123456789` } })).statusCode);
    }
    expect(new Set(statuses)).toEqual(new Set([403]));
    const limited = await h.app.inject({ method: 'GET', url: '/v1/agents', remoteAddress: ATTACKER_IP, headers: { authorization: 'Bearer guess-31-0123456789' } });
    const problem = expectProblem(limited, 429, 'rate_limited');
    expect(problem.detail).toMatch(/^more than 30 failed authentications from this IP in 60 s; retry in \d+ s$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Refused before the token is compared: the right token from that IP waits too.
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents', remoteAddress: ATTACKER_IP, headers: operator() }), 429, 'rate_limited');
    expect((await h.app.inject({ method: 'GET', url: '/v1/agents', headers: operator() })).statusCode).toBe(200);
    // Public routes are not authentication.
    expect((await h.app.inject({ method: 'GET', url: '/health', remoteAddress: ATTACKER_IP })).statusCode).not.toBe(429);
  });

  it('should count missing credentials, bad signatures, stale timestamps and reused nonces, and stop calling identity past the limit', async () => {
    const agent = new TestAgent(uniqueAgentId('agent'));
    await registerAgent(h.app, agent);
    const url = `/v1/agents/${agent.agentId}`;
    const replayed = agent.signedHeaders('GET', url);
    expect((await h.app.inject({ method: 'GET', url, remoteAddress: ATTACKER_IP, headers: replayed })).statusCode).toBe(200);
    const failures = [
      () => ({ headers: {} }),
      () => ({ headers: new TestAgent(agent.agentId).signedHeaders('GET', url) }),
      () => ({ headers: agent.signedHeaders('GET', url, '', Math.floor(Date.now() / 1000) - 3600) }),
      () => ({ headers: replayed }),
    ];
    for (let i = 0; i < 30; i++) {
      const res = await h.app.inject({ method: 'GET', url, remoteAddress: ATTACKER_IP, ...failures[i % failures.length]!() });
      expect([401, 403]).toContain(res.statusCode);
    }
    const verifies = verifyCalls(h.identity);
    const limited = await h.app.inject({ method: 'GET', url, remoteAddress: ATTACKER_IP, headers: new TestAgent(agent.agentId).signedHeaders('GET', url) });
    expectProblem(limited, 429, 'rate_limited');
    expect(verifyCalls(h.identity)).toBe(verifies);
    // The agent itself, from its own address, is not affected.
    expect((await h.app.inject({ method: 'GET', url, headers: agent.signedHeaders('GET', url) })).statusCode).toBe(200);
  });

  it('should take its limit from RATE_LIMIT_AUTH_FAILURES', async () => {
    const low = await startHarness({ env: { RATE_LIMIT_AUTH_FAILURES: '2' } });
    try {
      const wrong = { method: 'GET' as const, url: '/v1/agents', headers: { authorization: 'Bearer wrong-token-0123456789' } };
      expect([(await low.app.inject(wrong)).statusCode, (await low.app.inject(wrong)).statusCode]).toEqual([403, 403]);
      expectProblem(await low.app.inject(wrong), 429, 'rate_limited');
    } finally {
      await low.close();
    }
  });
});

describe('Redis unreachable (REDIS_URL set, nothing listening)', () => {
  let h: Harness;
  let alice: TestAgent;

  beforeAll(async () => {
    h = await startHarness({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    alice = new TestAgent(uniqueAgentId('alice'));
    await registerAgent(h.app, alice);
  });
  afterAll(async () => {
    await h.close();
  });

  it('should refuse signed mutations 503 (fail closed) and create nothing', async () => {
    const before = createContractCalls(h.market);
    const res = await h.app.inject(signedRequest(alice, 'POST', '/v1/contracts', CONTRACT));
    expectProblem(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
    expect(createContractCalls(h.market)).toBe(before);
  });

  it('should serve signed reads, still refusing a replay within this gateway', async () => {
    const request = signedRequest(alice, 'GET', `/v1/agents/${alice.agentId}`);
    expect((await h.app.inject(request)).statusCode).toBe(200);
    expectProblem(await h.app.inject(request), 401, 'agent_nonce_reused');
  });
});

describeWithRedis('nonces and failures shared through Redis by two gateways', (redisUrl) => {
  let identity: FakeIdentity;
  let market: FakeMarket;
  let a: Harness;
  let b: Harness;
  let redis: Redis;
  let alice: TestAgent;
  const prefix = `gateway-test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    identity = await startFakeIdentity();
    market = await startFakeMarket();
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
    a = await startHarness({ env, identity, market });
    b = await startHarness({ env, identity, market });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    alice = new TestAgent(uniqueAgentId('alice'));
    await registerAgent(a.app, alice);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await a?.close();
    await b?.close();
    await identity?.stop();
    await market?.stop();
  });

  it('should refuse on gateway B a signed POST /v1/contracts already accepted by gateway A, creating nothing', async () => {
    const request = signedRequest(alice, 'POST', '/v1/contracts', CONTRACT);
    const before = createContractCalls(market);
    expect((await a.app.inject(request)).statusCode).toBe(201);
    expectProblem(await b.app.inject(request), 401, 'agent_nonce_reused');
    expectProblem(await a.app.inject(request), 401, 'agent_nonce_reused');
    expect(createContractCalls(market)).toBe(before + 1);
    const ttl = await redis.pttl(`${prefix}nonce:${alice.agentId} ${request.headers['x-agent-nonce']}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(601_000);
  });

  it('should let only one of two gateways receiving the same signed request at once accept it', async () => {
    const request = signedRequest(alice, 'POST', '/v1/contracts', CONTRACT);
    const statuses = (await Promise.all([a.app.inject(request), b.app.inject(request)])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 401]);
  });

  it('should count failed authentications from one IP across both gateways', async () => {
    const wrong = { method: 'GET' as const, url: '/v1/agents', remoteAddress: ATTACKER_IP, headers: { authorization: 'Bearer wrong-token-0123456789' } };
    for (let i = 0; i < 15; i++) {
      expect((await a.app.inject(wrong)).statusCode).toBe(403);
      expect((await b.app.inject(wrong)).statusCode).toBe(403);
    }
    const limited = await a.app.inject(wrong);
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectProblem(await b.app.inject({ ...wrong, headers: operator() }), 429, 'rate_limited');
  });
});
