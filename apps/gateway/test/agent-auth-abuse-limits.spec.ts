import { captureLogs, describeWithRedis } from '@exchange/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { startFakeIdentity, type FakeIdentity } from './fake-identity';
import { startFakeMarket, type FakeMarket } from './fake-market';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';
import { ATTACKER_IP, CONTRACT, createContractCalls, signedRequest, verifyCalls } from './agent-auth-abuse-kit';

// Issue 12 findings 9–12, continued from agent-auth-abuse.spec.ts: failed authentication limited
// per IP, replay protection with Redis unreachable, and nonces and failures shared through Redis
// by two gateways.

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
  // Every line since the gateway started: the outage is logged once, whichever test hits it first.
  const { lines, logger } = captureLogs('gateway');

  beforeAll(async () => {
    h = await startHarness({ env: { REDIS_URL: 'redis://127.0.0.1:1' }, logger });
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

  it('should log the outage once, not per request, and each refusal in one warn line without a stack', async () => {
    const ids = ['nonce-outage-1', 'nonce-outage-2', 'nonce-outage-3'];
    for (const id of ids) {
      const request = signedRequest(alice, 'POST', '/v1/contracts', CONTRACT);
      const res = await h.app.inject({ ...request, headers: { ...request.headers, 'x-request-id': id } });
      expect(expectProblem(res, 503, 'service_unavailable').detail).toBe('replay protection is unavailable; retry shortly with a new nonce');
      expect(res.headers['retry-after']).toBe('1');
    }
    const outage = lines.filter((line) => String(line.msg).startsWith('nonce store (redis) failed'));
    expect(outage).toEqual([expect.objectContaining({ level: 'warn', err: expect.any(String) })]);
    expect(JSON.stringify(outage)).not.toContain('stack');
    for (const id of ids) {
      const own = lines.filter((line) => line.request_id === id);
      // A known outage, not a bug: no error line and no stack; still a failure, so the request line stays at warn.
      expect(own.filter((line) => line.msg !== 'request')).toEqual([
        expect.objectContaining({ level: 'warn', msg: 'dependency unavailable', code: 'service_unavailable' }),
      ]);
      expect(JSON.stringify(own)).not.toContain('stack');
      expect(own.find((line) => line.msg === 'request')).toMatchObject({ level: 'warn', status: 503 });
    }
  });

  it('should log the lost Redis connection once, not at every reconnection attempt', async () => {
    // The first failure was logged at start; wait for ioredis to fail again (it retries every ≤ 2 s).
    const redis = h.app.gatewayRedis!.client;
    let failures = 0;
    const count = () => failures++;
    redis.on('error', count);
    try {
      while (failures < 1) await new Promise((r) => setTimeout(r, 20));
    } finally {
      redis.off('error', count);
    }
    const lost = lines.filter((line) => String(line.msg).startsWith('gateway redis unreachable'));
    expect(lost).toEqual([expect.objectContaining({ level: 'warn', err: expect.any(String) })]);
    expect(JSON.stringify(lost)).not.toContain('stack');
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
