import { DomainError, errors } from '@exchange/platform';
import { status } from '@grpc/grpc-js';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Cross-cutting HTTP conventions (DESIGN §3): request ids, problem+json for every failure,
// gRPC → HTTP mapping with the code from trailers, no internals leaked.

let h: Harness;
let agent: TestAgent;

beforeAll(async () => {
  h = await startHarness();
  agent = new TestAgent(uniqueAgentId('conv'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

describe('x-request-id', () => {
  it('should echo a sane incoming request id and send it to the service', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}/identity_transitions`, headers: operator({ 'x-request-id': 'client-abc.123' }) });
    expect(res.headers['x-request-id']).toBe('client-abc.123');
    const call = h.identity.calls.filter((c) => c.method === 'listIdentityTransitions').at(-1)!;
    expect(call.ctx.requestId).toBe('client-abc.123');
    expect(call.ctx.traceId).toBe('client-abc.123');
  });

  it('should replace a missing or unsafe request id by req_<uuidv7>', async () => {
    for (const headers of [operator(), operator({ 'x-request-id': 'bad id with spaces' }), operator({ 'x-request-id': 'x'.repeat(200) })]) {
      const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}`, headers });
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('should be present on errors, 404s and public routes too', async () => {
    for (const res of [
      await h.app.inject({ method: 'GET', url: '/v1/agents' }),
      await h.app.inject({ method: 'GET', url: '/nope' }),
      await h.app.inject({ method: 'GET', url: '/skill.md' }),
    ]) {
      expect(res.headers['x-request-id']).toMatch(/^req_/);
    }
  });
});

describe('unknown routes and methods', () => {
  it('should answer an unknown path with 404 problem+json, even without credentials', async () => {
    const problem = expectProblem(await h.app.inject({ method: 'GET', url: '/v1/nothing-here?x=1' }), 404, 'not_found');
    expect(problem.detail).toBe('no route GET /v1/nothing-here');
  });

  it('should answer a known path with the wrong method with 405 and Allow', async () => {
    const res = await h.app.inject({ method: 'DELETE', url: `/v1/agents/${agent.agentId}`, headers: operator() });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers['allow']).toContain('GET');
  });
});

describe('gRPC error mapping', () => {
  // A read that always reaches identity (GET /v1/agents/{id} may answer from the agent cache).
  const get = () => h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}/identity_transitions`, headers: operator() });

  it('should never leak the message of an internal error', async () => {
    h.identity.failNext('listIdentityTransitions', new Error('relation "agents" does not exist: SELECT * FROM agents'));
    const problem = expectProblem(await get(), 500, 'internal');
    expect(problem.detail).toBe('internal error');
    expect(JSON.stringify(problem)).not.toMatch(/SELECT|relation|stack|at /);
  });

  it('should map caps (RESOURCE_EXHAUSTED *_cap_exceeded) to 403 and copy details into the problem', async () => {
    h.identity.failNext(
      'listIdentityTransitions',
      errors.resourceExhausted('faucet_cap_exceeded', 'faucet cap of 200 CREDIT per day reached', { resets_at: '2026-11-22T00:00:00.000Z' }),
    );
    const problem = expectProblem(await get(), 403, 'faucet_cap_exceeded');
    expect(problem).toMatchObject({ detail: 'faucet cap of 200 CREDIT per day reached', resets_at: '2026-11-22T00:00:00.000Z' });
  });

  it('should map other RESOURCE_EXHAUSTED to 429 and keep reserved problem members from details', async () => {
    h.identity.failNext('listIdentityTransitions', errors.resourceExhausted('quota_exhausted', 'too many', { status: 999, code: 'evil', left: 0 }));
    const problem = expectProblem(await get(), 429, 'quota_exhausted');
    expect(problem.left).toBe(0);
  });

  it.each([
    [status.INVALID_ARGUMENT, 400],
    [status.UNAUTHENTICATED, 401],
    [status.PERMISSION_DENIED, 403],
    [status.NOT_FOUND, 404],
    [status.ALREADY_EXISTS, 409],
    [status.FAILED_PRECONDITION, 409],
    [status.ABORTED, 409],
  ])('should map gRPC status %s to HTTP %s with the code from x-error-code', async (grpcCode, httpStatus) => {
    h.identity.failNext('listIdentityTransitions', new DomainError(grpcCode, 'some_code', 'some detail'));
    const problem = expectProblem(await get(), httpStatus, 'some_code');
    expect(problem.detail).toBe('some detail');
  });

  it('should keep a deliberate UNAVAILABLE code (read_only) as 503', async () => {
    h.identity.failNext('listIdentityTransitions', errors.unavailable('read_only', 'the exchange is in read-only mode'));
    const problem = expectProblem(await get(), 503, 'read_only');
    expect(problem.detail).toBe('the exchange is in read-only mode');
  });

  it('should answer 503 service_unavailable when the service cannot be reached', async () => {
    const other = await startHarness({ env: { IDENTITY_GRPC_URL: '127.0.0.1:1' } });
    try {
      const problem = expectProblem(
        await other.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}`, headers: operator() }),
        503,
        'service_unavailable',
      );
      expect(problem.detail).toBe('a backing service is unavailable; retry later');
      expect(JSON.stringify(problem)).not.toContain('127.0.0.1');
    } finally {
      await other.close();
    }
  });
});
