import { identityV1 } from '@exchange/proto';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The Agents area through app.inject() against a real grpc-js server running a fake identity.
// Here: registration and reads; level changes, transitions, key revocation and freezes in
// agents-changes.spec.ts.

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('POST /v1/agents', () => {
  it('should register an agent and answer 201 with the REST shape', async () => {
    const agent = new TestAgent(uniqueAgentId('alpha'));
    const spare = new TestAgent(agent.agentId);
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: operator(),
      payload: agent.registrationBody(undefined, { pubkey_set: [spare.publicKey] }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(body).toEqual({
      agent_id: agent.agentId,
      primary_pubkey: agent.publicKey,
      pubkey_set: [spare.publicKey],
      keys: [
        { pubkey: agent.publicKey, primary: true, status: 'active', added_at: expect.any(String), revoked_at: null, revoked_reason: null },
        { pubkey: spare.publicKey, primary: false, status: 'active', added_at: expect.any(String), revoked_at: null, revoked_reason: null },
      ],
      identity_level: 'SANDBOX_UNVERIFIED',
      status: 'active',
      frozen_reason: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const call = h.identity.calls.find((c) => c.method === 'registerAgent' && (c.request as { agentId: string }).agentId === agent.agentId)!;
    expect(call.request).toMatchObject({
      primaryPubkey: agent.publicKey,
      pubkeySet: [spare.publicKey],
      identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
    });
    expect(call.ctx.actor).toBe('operator:default');
  });

  it('should default pubkey_set to [] and identity_level to SANDBOX_UNVERIFIED when omitted', async () => {
    const agent = new TestAgent(uniqueAgentId('minimal'));
    const { pubkey_set: _p, identity_level: _l, ...body } = agent.registrationBody();
    const res = await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ pubkey_set: [], identity_level: 'SANDBOX_UNVERIFIED' });
  });

  it('should map a bad proof to 400 key_proof_failed with the exact detail', async () => {
    const agent = new TestAgent(uniqueAgentId('forger'));
    const body = { ...agent.registrationBody(), proof_signature: new TestAgent('x:agent:y').registrationBody().proof_signature };
    const problem = expectProblem(await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: body }), 400, 'key_proof_failed');
    expect(problem.detail).toBe('key ownership proof failed');
  });

  it('should map a duplicate agent_id to 409 agent_id_exists with the exact detail', async () => {
    const agent = new TestAgent(uniqueAgentId('twin'));
    await registerAgent(h.app, agent);
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: new TestAgent(agent.agentId).registrationBody() }),
      409,
      'agent_id_exists',
    );
    expect(problem.detail).toBe('agent_id already exists');
  });

  it('should map a reused nonce to 409 proof_nonce_used and a mainnet level in sandbox to 403', async () => {
    const a = new TestAgent(uniqueAgentId('nonce-a'));
    await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: a.registrationBody('same-nonce-1') });
    const b = new TestAgent(uniqueAgentId('nonce-b'));
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: b.registrationBody('same-nonce-1') }), 409, 'proof_nonce_used');
    const c = new TestAgent(uniqueAgentId('mainnet'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: c.registrationBody(undefined, { identity_level: 'MAINNET_BASIC' }) }),
      403,
      'identity_level_not_allowed',
    );
  });

  it('should refuse unknown fields with 400 validation_failed naming the field, without calling identity', async () => {
    const agent = new TestAgent(uniqueAgentId('strict'));
    const before = h.identity.calls.length;
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: { ...agent.registrationBody(), nickname: 'x' } }),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ pointer: '/nickname', message: 'unknown field' }]);
    expect(h.identity.calls.length).toBe(before);
  });

  it('should list every schema violation with a JSON pointer', async () => {
    const problem = expectProblem(
      await h.app.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: operator(),
        payload: { agent_id: 'Not An Agent', primary_pubkey: 7, identity_level: 'GOLD', proof_nonce: '' },
      }),
      400,
      'validation_failed',
    );
    const pointers = problem.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/agent_id', '/primary_pubkey', '/identity_level', '/proof_nonce', '/proof_signature']));
    expect(problem.errors.find((e: { pointer: string }) => e.pointer === '/identity_level').message).toBe(
      'must be one of SANDBOX_UNVERIFIED, MAINNET_BASIC, MAINNET_ATTESTED, MAINNET_VERIFIED, MAINNET_INSTITUTIONAL',
    );
    expect(problem.errors.find((e: { pointer: string }) => e.pointer === '/proof_signature').message).toBe('is required');
  });

  it('should refuse malformed JSON, an empty JSON body and a non-JSON body', async () => {
    const malformed = expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator({ 'content-type': 'application/json' }), payload: '{"agent_id": ' }),
      400,
      'malformed_json',
    );
    expect(malformed.detail).toBe('the body is not valid JSON');
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator({ 'content-type': 'application/json' }), payload: '' }),
      400,
      'malformed_json',
    );
    expectProblem(
      await h.app.inject({ method: 'POST', url: '/v1/agents', headers: operator({ 'content-type': 'text/plain' }), payload: 'hello' }),
      415,
      'unsupported_media_type',
    );
  });

  it('should refuse a body over BODY_LIMIT_BYTES with 413', async () => {
    const small = await startHarness({ env: { BODY_LIMIT_BYTES: '2048' } });
    try {
      const agent = new TestAgent(uniqueAgentId('big'));
      const res = await small.app.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: operator(),
        payload: { ...agent.registrationBody(), proof_nonce: 'n'.repeat(3000) },
      });
      expectProblem(res, 413, 'payload_too_large');
    } finally {
      await small.close();
    }
  });
});

describe('GET /v1/agents/{agent_id}', () => {
  it('should read an agent and 404 an unknown one', async () => {
    const agent = new TestAgent(uniqueAgentId('reader'));
    const created = await registerAgent(h.app, agent);
    const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}`, headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    const problem = expectProblem(
      await h.app.inject({ method: 'GET', url: `/v1/agents/${uniqueAgentId('ghost')}`, headers: operator() }),
      404,
      'agent_not_found',
    );
    expect(problem.detail).toMatch(/^agent .* not found$/);
  });

  it('should refuse a malformed agent id in the path with 400', async () => {
    const problem = expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents/NOT-AN-ID', headers: operator() }), 400, 'validation_failed');
    expect(problem.errors[0].pointer).toBe('/agent_id');
  });
});

describe('GET /v1/agents', () => {
  it('should page newest first and pass filters to identity', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const agent = new TestAgent(uniqueAgentId(`page-${i}`));
      await registerAgent(h.app, agent);
      ids.push(agent.agentId);
    }
    const first = await h.app.inject({ method: 'GET', url: '/v1/agents?limit=2', headers: operator() });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((a: { agent_id: string }) => a.agent_id)).toEqual([ids[2], ids[1]]);
    const cursor = first.json().next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const second = await h.app.inject({ method: 'GET', url: `/v1/agents?limit=2&cursor=${encodeURIComponent(cursor)}`, headers: operator() });
    expect(second.json().data[0].agent_id).toBe(ids[0]);

    await h.app.inject({ method: 'GET', url: '/v1/agents?identity_level=MAINNET_BASIC&status=frozen', headers: operator() });
    const call = h.identity.calls.filter((c) => c.method === 'listAgents').at(-1)!;
    expect(call.request).toEqual({
      page: { limit: 0, cursor: '' },
      identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC,
      status: identityV1.AgentStatus.AGENT_STATUS_FROZEN,
    });
  });

  it('should give next_cursor null on the last page', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/agents?limit=200', headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.json().next_cursor).toBeNull();
  });

  it.each(['0', '201', '-1', '1.5', 'ten'])('should refuse limit=%s with 400', async (limit) => {
    const problem = expectProblem(await h.app.inject({ method: 'GET', url: `/v1/agents?limit=${limit}`, headers: operator() }), 400, 'validation_failed');
    expect(problem.errors[0].pointer).toBe('/limit');
  });

  it('should refuse unknown query parameters and a bad cursor with 400', async () => {
    const unknown = expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents?colour=red', headers: operator() }), 400, 'validation_failed');
    expect(unknown.errors).toEqual([{ pointer: '/colour', message: 'unknown field' }]);
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/agents?cursor=%25%25%25not-a-cursor', headers: operator() }), 400, 'invalid_cursor');
  });
});
