import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Authentication and the acting agent (DESIGN §3): operator tokens, agent-signed requests,
// operator-only routes, self-only paths and the frozen check.

let h: Harness;
let alice: TestAgent;
let bob: TestAgent;

beforeAll(async () => {
  h = await startHarness({
    env: { OPERATOR_TOKENS: 'ops-alice=alice-token-0123456789,ops-bob=bob-token-0123456789abc' },
  });
  alice = new TestAgent(uniqueAgentId('alice'));
  bob = new TestAgent(uniqueAgentId('bob'));
  await registerAgent(h.app, alice);
  await registerAgent(h.app, bob);
});

afterAll(async () => {
  await h.close();
});

describe('operator token', () => {
  it('should answer 401 with WWW-Authenticate when no credentials are sent', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/agents' });
    expectProblem(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="agent-exchange"');
  });

  it('should answer 401 for another Authorization scheme', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents', headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'unauthenticated');
  });

  it('should answer 403 for a wrong bearer token, including a prefix of a real one', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents', headers: { authorization: 'Bearer not-the-token-at-all' } }), 403, 'forbidden');
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents', headers: { authorization: 'Bearer alice-token-012345678' } }), 403, 'forbidden');
  });

  it('should accept every configured token (OPERATOR_TOKEN and OPERATOR_TOKENS) and name the operator in x-actor', async () => {
    for (const [token, actor] of [
      ['test-operator-token-0123456789', 'operator:default'],
      ['alice-token-0123456789', 'operator:ops-alice'],
      ['bob-token-0123456789abc', 'operator:ops-bob'],
    ]) {
      const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${alice.agentId}/identity_transitions`, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      const call = h.identity.calls.filter((c) => c.method === 'listIdentityTransitions').at(-1)!;
      expect(call.ctx.actor).toBe(actor);
      expect(call.ctx.agentId).toBeNull();
    }
  });

  it('should pass X-Agent-Id with an operator token as the acting agent, and validate its shape', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${bob.agentId}/identity_transitions`, headers: operator({ 'x-agent-id': alice.agentId }) });
    expect(res.statusCode).toBe(200);
    const call = h.identity.calls.filter((c) => c.method === 'listIdentityTransitions').at(-1)!;
    expect(call.ctx).toMatchObject({ actor: 'operator:default', agentId: alice.agentId });
    const bad = expectProblem(
      await h.app.inject({ method: 'GET', url: `/v1/agents/${bob.agentId}`, headers: operator({ 'x-agent-id': 'Nope' }) }),
      400,
      'validation_failed',
    );
    expect(bad.errors).toEqual([{ pointer: '/headers/x-agent-id', message: 'must match <namespace>:agent:<name>' }]);
  });
});

describe('agent-signed requests', () => {
  it('should serve a GET signed by the agent without an operator token, acting as that agent', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const res = await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url) });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent_id).toBe(alice.agentId);
    // The agent read may come from the agent cache; a read that reaches identity carries the actor.
    const transitions = `/v1/agents/${alice.agentId}/identity_transitions`;
    expect((await h.app.inject({ method: 'GET', url: transitions, headers: alice.signedHeaders('GET', transitions) })).statusCode).toBe(200);
    const call = h.identity.calls.filter((c) => c.method === 'listIdentityTransitions').at(-1)!;
    expect(call.ctx).toMatchObject({ actor: `agent:${alice.agentId}`, agentId: alice.agentId });
  });

  it('should sign the path with its query string', async () => {
    const url = '/v1/agents?limit=2&status=active';
    expect((await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url) })).statusCode).toBe(200);
    const signedWithoutQuery = alice.signedHeaders('GET', '/v1/agents');
    expectProblem(await h.app.inject({ method: 'GET', url, headers: signedWithoutQuery }), 403, 'agent_signature_invalid');
  });

  it('should refuse a signature by another key for the same agent id (acting as another agent)', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const impostor = new TestAgent(alice.agentId);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: impostor.signedHeaders('GET', url) }), 403, 'agent_signature_invalid');
    // bob signs but claims to be alice
    const forged = { ...bob.signedHeaders('GET', url), 'x-agent-id': alice.agentId };
    expectProblem(await h.app.inject({ method: 'GET', url, headers: forged }), 403, 'agent_signature_invalid');
  });

  it('should refuse a timestamp outside ±300 s and a malformed one, without asking identity', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const before = h.identity.calls.length;
    const now = Math.floor(Date.now() / 1000);
    expectProblem(await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', now - 301) }), 403, 'agent_timestamp_invalid');
    expectProblem(await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', now + 301) }), 403, 'agent_timestamp_invalid');
    const malformed = { ...alice.signedHeaders('GET', url), 'x-agent-timestamp': '2026-01-01T00:00:00Z' };
    expectProblem(await h.app.inject({ method: 'GET', url, headers: malformed }), 403, 'agent_timestamp_invalid');
    expect(h.identity.calls.length).toBe(before);
    expect((await h.app.inject({ method: 'GET', url, headers: alice.signedHeaders('GET', url, '', now - 290) })).statusCode).toBe(200);
  });

  it('should answer 401 when the signature headers are incomplete', async () => {
    const url = `/v1/agents/${alice.agentId}`;
    const { 'x-agent-signature': _s, ...withoutSignature } = alice.signedHeaders('GET', url);
    const problem = expectProblem(await h.app.inject({ method: 'GET', url, headers: withoutSignature }), 401, 'unauthenticated');
    expect(problem.detail).toContain('X-Agent-Signature');
  });

  it('should refuse an agent-signed request on an operator-only route, even correctly signed', async () => {
    const url = `/v1/agents/${alice.agentId}/identity_level`;
    const body = JSON.stringify({ identity_level: 'MAINNET_BASIC', reason: 'please' });
    const res = await h.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json', ...alice.signedHeaders('POST', url, body) },
    });
    expectProblem(res, 403, 'operator_token_required');
    const after = await h.app.inject({ method: 'GET', url: `/v1/agents/${alice.agentId}`, headers: operator() });
    expect(after.json().identity_level).toBe('SANDBOX_UNVERIFIED');
  });

  it('should let an agent read only its own identity transitions', async () => {
    const own = `/v1/agents/${alice.agentId}/identity_transitions`;
    expect((await h.app.inject({ method: 'GET', url: own, headers: alice.signedHeaders('GET', own) })).statusCode).toBe(200);
    const other = `/v1/agents/${bob.agentId}/identity_transitions`;
    const problem = expectProblem(await h.app.inject({ method: 'GET', url: other, headers: alice.signedHeaders('GET', other) }), 403, 'forbidden');
    expect(problem.detail).toBe('an agent-signed request may only act as the signing agent');
  });

  it('should stop accepting a key once it is revoked', async () => {
    const carol = new TestAgent(uniqueAgentId('carol'));
    const spare = new TestAgent(carol.agentId);
    await registerAgent(h.app, carol, { pubkey_set: [spare.publicKey] });
    const url = `/v1/agents/${carol.agentId}`;
    expect((await h.app.inject({ method: 'GET', url, headers: spare.signedHeaders('GET', url) })).statusCode).toBe(200);
    await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${carol.agentId}/keys/${encodeURIComponent(spare.publicKey)}/revoke`,
      headers: operator(),
      payload: { reason: 'rotated' },
    });
    expectProblem(await h.app.inject({ method: 'GET', url, headers: spare.signedHeaders('GET', url) }), 403, 'agent_signature_invalid');
    expect((await h.app.inject({ method: 'GET', url, headers: carol.signedHeaders('GET', url) })).statusCode).toBe(200);
  });
});

describe('frozen acting agent', () => {
  it('should refuse mutations acting as a frozen agent with 403 agent_frozen, but allow reads and unfreeze', async () => {
    const dave = new TestAgent(uniqueAgentId('dave'));
    await registerAgent(h.app, dave);
    const freeze = await h.app.inject({ method: 'POST', url: `/v1/agents/${dave.agentId}/freeze`, headers: operator(), payload: { reason: 'review' } });
    expect(freeze.statusCode).toBe(200);

    const before = h.identity.calls.filter((c) => c.method === 'changeIdentityLevel').length;
    const problem = expectProblem(
      await h.app.inject({
        method: 'POST',
        url: `/v1/agents/${bob.agentId}/identity_level`,
        headers: operator({ 'x-agent-id': dave.agentId }),
        payload: { identity_level: 'MAINNET_BASIC', reason: 'as dave' },
      }),
      403,
      'agent_frozen',
    );
    expect(problem.detail).toBe(`agent ${dave.agentId} is frozen`);
    expect(h.identity.calls.filter((c) => c.method === 'changeIdentityLevel').length).toBe(before);

    const url = `/v1/agents/${dave.agentId}`;
    expect((await h.app.inject({ method: 'GET', url, headers: dave.signedHeaders('GET', url) })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url, headers: operator({ 'x-agent-id': dave.agentId }) })).statusCode).toBe(200);
    const thaw = await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${dave.agentId}/unfreeze`,
      headers: operator({ 'x-agent-id': dave.agentId }),
      payload: { reason: 'cleared' },
    });
    expect(thaw.statusCode).toBe(200);
    // The unfreeze made through this gateway refreshed its cache: mutations work again at once.
    const after = await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${bob.agentId}/identity_level`,
      headers: operator({ 'x-agent-id': dave.agentId }),
      payload: { identity_level: 'MAINNET_BASIC', reason: 'as dave again' },
    });
    expect(after.statusCode).toBe(200);
  });
});

describe('public routes', () => {
  it.each(['/health', '/skill.md', '/quickstart.md', '/openapi.json', '/api-reference', '/api-reference/json'])(
    'should serve %s without credentials',
    async (url) => {
      const res = await h.app.inject({ method: 'GET', url });
      expect([200, 503]).toContain(res.statusCode);
      expect(res.headers['content-type']).not.toContain('problem');
    },
  );
});
