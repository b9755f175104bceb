import { describeWithRedis } from '@exchange/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { startFakeIdentity, type FakeIdentity } from './fake-identity';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Rate limits (DESIGN §3) with low limits so that N requests reach them: per acting agent by
// identity level, else per operator token, else per IP; 429 problem with Retry-After and
// RateLimit-* headers. The Redis suite checks that two gateways share the counters.

const LOW_LIMITS = {
  RATE_LIMIT_ANONYMOUS: '3',
  RATE_LIMIT_OPERATOR: '40',
  RATE_LIMIT_SANDBOX_UNVERIFIED: '2',
  RATE_LIMIT_MAINNET_BASIC: '4',
};

type InjectRequest = { method: 'GET'; url: string; headers?: Record<string, string> };

async function burst(h: Harness, n: number, request: () => InjectRequest) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.app.inject(request())).statusCode);
  return statuses;
}

describe('rate limits (memory store)', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ env: LOW_LIMITS });
  });

  afterEach(async () => {
    await h.close();
  });

  it('should allow RATE_LIMIT_ANONYMOUS requests per IP, then answer 429 problem+json with Retry-After', async () => {
    const first = await h.app.inject({ method: 'GET', url: '/skill.md' });
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect(await burst(h, 2, () => ({ method: 'GET' as const, url: '/quickstart.md' }))).toEqual([200, 200]);
    const limited = await h.app.inject({ method: 'GET', url: '/skill.md' });
    const problem = expectProblem(limited, 429, 'rate_limited');
    expect(problem.detail).toMatch(/^rate limit of 3 requests per 60 s exceeded; retry in /);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-limit']).toBe('3');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-reset']).toBeDefined();
  });

  it('should limit an agent by its identity level and share the bucket between signed and operator-acting requests', async () => {
    const agent = new TestAgent(uniqueAgentId('limited'));
    await registerAgent(h.app, agent);
    const url = `/v1/agents/${agent.agentId}`;
    expect(await burst(h, 2, () => ({ method: 'GET' as const, url, headers: agent.signedHeaders('GET', url) }))).toEqual([200, 200]);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: agent.signedHeaders('GET', url) }), 429, 'rate_limited');
    // The operator acting as the same agent draws from the same bucket...
    expectProblem(await h.app.inject({ method: 'GET', url, headers: operator({ 'x-agent-id': agent.agentId }) }), 429, 'rate_limited');
    // ...but the operator alone, and another agent, have their own.
    expect((await h.app.inject({ method: 'GET', url, headers: operator() })).statusCode).toBe(200);
    const other = new TestAgent(uniqueAgentId('other'));
    await registerAgent(h.app, other);
    const otherUrl = `/v1/agents/${other.agentId}`;
    expect((await h.app.inject({ method: 'GET', url: otherUrl, headers: other.signedHeaders('GET', otherUrl) })).statusCode).toBe(200);
  });

  it('should give a higher limit to a higher identity level', async () => {
    const agent = new TestAgent(uniqueAgentId('basic'));
    await registerAgent(h.app, agent);
    const promote = await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${agent.agentId}/identity_level`,
      headers: operator(),
      payload: { identity_level: 'MAINNET_BASIC', reason: 'kyc' },
    });
    expect(promote.statusCode).toBe(200);
    const url = `/v1/agents/${agent.agentId}`;
    const first = await h.app.inject({ method: 'GET', url, headers: agent.signedHeaders('GET', url) });
    expect(first.headers['ratelimit-limit']).toBe('4');
    expect(await burst(h, 3, () => ({ method: 'GET' as const, url, headers: agent.signedHeaders('GET', url) }))).toEqual([200, 200, 200]);
    expect((await h.app.inject({ method: 'GET', url, headers: agent.signedHeaders('GET', url) })).statusCode).toBe(429);
  });

  it('should limit an operator token without an agent at RATE_LIMIT_OPERATOR', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/agents', headers: operator() });
    expect(res.headers['ratelimit-limit']).toBe('40');
  });
});

describeWithRedis('rate limits (Redis store shared by two gateways)', (redisUrl) => {
  let identity: FakeIdentity;
  let a: Harness;
  let b: Harness;
  let redis: Redis;
  const prefix = `gateway-test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    identity = await startFakeIdentity();
    const env = { ...LOW_LIMITS, REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix };
    a = await startHarness({ env, identity });
    b = await startHarness({ env, identity });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await a?.close();
    await b?.close();
    await identity?.stop();
  });

  it('should count requests to both gateways in one bucket kept in Redis under the configured prefix', async () => {
    expect((await a.app.inject({ method: 'GET', url: '/skill.md' })).statusCode).toBe(200);
    expect((await b.app.inject({ method: 'GET', url: '/skill.md' })).statusCode).toBe(200);
    const third = await a.app.inject({ method: 'GET', url: '/skill.md' });
    expect(third.statusCode).toBe(200);
    expect(third.headers['ratelimit-remaining']).toBe('0');
    const limited = await b.app.inject({ method: 'GET', url: '/skill.md' });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
  });
});
