import { bootStack, type Stack } from './stack';
import { expectProblem, http } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';

// The Agents area end to end, driven over HTTP by an agent that follows only /skill.md.
// Test names carry "<METHOD> <path>" so tools/spec-coverage can tell which endpoints are tested.
let stack: Stack;
let url: string;
let token: string;

beforeAll(async () => {
  stack = await bootStack();
  url = stack.baseUrl;
  token = stack.operatorToken;
});

afterAll(async () => {
  await stack?.stop();
});

async function register(agent: RawAgent) {
  const res = await http(url, 'POST', '/v1/agents', { token, body: agent.registrationBody() });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res.body;
}

describe('POST /v1/agents', () => {
  it('registers an agent whose proof was built by hand, as skill.md describes', async () => {
    const agent = new RawAgent(uniqueAgentId('alpha'));
    const res = await http(url, 'POST', '/v1/agents', { token, body: agent.registrationBody() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agent_id: agent.agentId,
      primary_pubkey: agent.publicKey,
      pubkey_set: [],
      identity_level: 'SANDBOX_UNVERIFIED',
      status: 'active',
      frozen_reason: null,
    });
    expect(res.body.keys).toEqual([
      expect.objectContaining({ pubkey: agent.publicKey, primary: true, status: 'active', revoked_at: null }),
    ]);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
  });

  it('refuses a wrong proof signature with 400 key_proof_failed', async () => {
    const agent = new RawAgent(uniqueAgentId('forger'));
    const body = agent.registrationBody();
    body.proof_signature = new RawAgent('x:agent:y').signBase64('something else');
    const problem = expectProblem(await http(url, 'POST', '/v1/agents', { token, body }), 400, 'key_proof_failed');
    expect(problem.detail).toBe('key ownership proof failed');
    expectProblem(await http(url, 'GET', `/v1/agents/${agent.agentId}`, { token }), 404, 'agent_not_found');
  });

  it('refuses a duplicate agent_id with 409 agent_id_exists', async () => {
    const agent = new RawAgent(uniqueAgentId('twin'));
    await register(agent);
    const again = new RawAgent(agent.agentId);
    const problem = expectProblem(
      await http(url, 'POST', '/v1/agents', { token, body: again.registrationBody() }),
      409,
      'agent_id_exists',
    );
    expect(problem.detail).toBe('agent_id already exists');
  });

  it('refuses a reused proof nonce', async () => {
    const first = new RawAgent(uniqueAgentId('nonce-a'));
    const body = first.registrationBody('shared-nonce-' + first.agentId);
    expect((await http(url, 'POST', '/v1/agents', { token, body })).status).toBe(201);
    const second = new RawAgent(uniqueAgentId('nonce-b'));
    expectProblem(
      await http(url, 'POST', '/v1/agents', { token, body: second.registrationBody(body.proof_nonce) }),
      409,
      'proof_nonce_used',
    );
  });

  it('needs the operator token: 401 without, 403 with a wrong one', async () => {
    const body = new RawAgent(uniqueAgentId('anon')).registrationBody();
    expectProblem(await http(url, 'POST', '/v1/agents', { body }), 401, 'unauthenticated');
    expectProblem(await http(url, 'POST', '/v1/agents', { token: 'not-the-token-at-all', body }), 403, 'forbidden');
  });

  it('refuses malformed JSON, unknown fields and a bad agent_id with 400', async () => {
    expect((await http(url, 'POST', '/v1/agents', { token, rawBody: '{"agent_id": ' })).status).toBe(400);
    const agent = new RawAgent(uniqueAgentId('strict'));
    const unknown = expectProblem(
      await http(url, 'POST', '/v1/agents', { token, body: { ...agent.registrationBody(), nickname: 'x' } }),
      400,
      'validation_failed',
    );
    expect(unknown.errors.length).toBeGreaterThan(0);
    const bad = new RawAgent('Not An Agent Id');
    expect((await http(url, 'POST', '/v1/agents', { token, body: bad.registrationBody() })).status).toBe(400);
  });

  it('refuses a mainnet identity level in sandbox with 403', async () => {
    const agent = new RawAgent(uniqueAgentId('mainnet'));
    const body = { ...agent.registrationBody(), identity_level: 'MAINNET_VERIFIED' };
    expectProblem(await http(url, 'POST', '/v1/agents', { token, body }), 403, 'identity_level_not_allowed');
  });
});

describe('GET /v1/agents/{agent_id}', () => {
  it('reads an agent, and 404s an unknown one', async () => {
    const agent = new RawAgent(uniqueAgentId('reader'));
    const created = await register(agent);
    const res = await http(url, 'GET', `/v1/agents/${agent.agentId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expectProblem(await http(url, 'GET', `/v1/agents/${uniqueAgentId('ghost')}`, { token }), 404, 'agent_not_found');
  });

  it('serves an agent-signed request without the operator token, and refuses a bad signature', async () => {
    const agent = new RawAgent(uniqueAgentId('signer'));
    await register(agent);
    const path = `/v1/agents/${agent.agentId}`;
    const ok = await http(url, 'GET', path, { headers: agent.signedHeaders('GET', path) });
    expect(ok.status).toBe(200);
    expect(ok.body.agent_id).toBe(agent.agentId);

    const impostor = new RawAgent(agent.agentId); // same id, a key the exchange does not know
    expectProblem(await http(url, 'GET', path, { headers: impostor.signedHeaders('GET', path) }), 403, 'agent_signature_invalid');

    const stale = await http(url, 'GET', path, {
      headers: agent.signedHeaders('GET', path, '', Math.floor(Date.now() / 1000) - 3600),
    });
    expectProblem(stale, 403, 'agent_timestamp_invalid');

    // A signature over another path does not authorise this one.
    const other = `/v1/agents/${agent.agentId}/identity_transitions`;
    expectProblem(await http(url, 'GET', path, { headers: agent.signedHeaders('GET', other) }), 403, 'agent_signature_invalid');
  });
});

describe('GET /v1/agents', () => {
  it('pages through every agent newest first without gaps or duplicates', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const agent = new RawAgent(uniqueAgentId(`page-${i}`));
      await register(agent);
      mine.push(agent.agentId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const res = await http(url, 'GET', `/v1/agents${q}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((a: { agent_id: string }) => a.agent_id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 1000);
    expect(new Set(seen).size).toBe(seen.length);
    const positions = mine.map((id) => seen.indexOf(id));
    expect(positions.every((p) => p >= 0)).toBe(true);
    // Newest first: the last registered comes first.
    expect([...positions].sort((a, b) => b - a)).toEqual(positions);
  });

  it('refuses an out-of-range limit and a bad cursor with 400', async () => {
    expect((await http(url, 'GET', '/v1/agents?limit=0', { token })).status).toBe(400);
    expect((await http(url, 'GET', '/v1/agents?limit=201', { token })).status).toBe(400);
    expect((await http(url, 'GET', '/v1/agents?limit=200', { token })).status).toBe(200);
    expect((await http(url, 'GET', '/v1/agents?cursor=%%%not-a-cursor', { token })).status).toBe(400);
  });
});

describe('POST /v1/agents/{agent_id}/identity_level', () => {
  it('moves up one step at a time, down any number, and refuses the rest with 409', async () => {
    const agent = new RawAgent(uniqueAgentId('climber'));
    await register(agent);
    const path = `/v1/agents/${agent.agentId}/identity_level`;
    const up = await http(url, 'POST', path, { token, body: { identity_level: 'MAINNET_BASIC', reason: 'kyc step 1' } });
    expect(up.status).toBe(200);
    expect(up.body.identity_level).toBe('MAINNET_BASIC');

    const skip = expectProblem(
      await http(url, 'POST', path, { token, body: { identity_level: 'MAINNET_VERIFIED', reason: 'too fast' } }),
      409,
      'invalid_state',
    );
    expect(skip.detail).toContain('MAINNET_BASIC');

    expect((await http(url, 'POST', path, { token, body: { identity_level: 'MAINNET_ATTESTED', reason: 'attested' } })).status).toBe(200);
    const down = await http(url, 'POST', path, { token, body: { identity_level: 'SANDBOX_UNVERIFIED', reason: 'demoted' } });
    expect(down.status).toBe(200);
    expect(down.body.identity_level).toBe('SANDBOX_UNVERIFIED');

    expect((await http(url, 'POST', path, { token, body: { identity_level: 'MAINNET_BASIC' } })).status).toBe(400);
    expectProblem(
      await http(url, 'POST', `/v1/agents/${uniqueAgentId('ghost')}/identity_level`, {
        token,
        body: { identity_level: 'MAINNET_BASIC', reason: 'x' },
      }),
      404,
      'agent_not_found',
    );
  });

  it('is operator-only: an agent-signed request is refused', async () => {
    const agent = new RawAgent(uniqueAgentId('selfpromoter'));
    await register(agent);
    const path = `/v1/agents/${agent.agentId}/identity_level`;
    const body = JSON.stringify({ identity_level: 'MAINNET_BASIC', reason: 'please' });
    const res = await http(url, 'POST', path, { rawBody: body, headers: agent.signedHeaders('POST', path, body) });
    expectProblem(res, 403, 'operator_token_required');
    const after = await http(url, 'GET', `/v1/agents/${agent.agentId}`, { token });
    expect(after.body.identity_level).toBe('SANDBOX_UNVERIFIED');
  });
});

describe('GET /v1/agents/{agent_id}/identity_transitions', () => {
  it('lists every level change newest first, with reason and actor, across pages', async () => {
    const agent = new RawAgent(uniqueAgentId('history'));
    await register(agent);
    const path = `/v1/agents/${agent.agentId}/identity_level`;
    const moves = [
      ['MAINNET_BASIC', 'r1'],
      ['MAINNET_ATTESTED', 'r2'],
      ['SANDBOX_UNVERIFIED', 'r3'],
    ];
    for (const [identity_level, reason] of moves) {
      expect((await http(url, 'POST', path, { token, body: { identity_level, reason } })).status).toBe(200);
    }
    const first = await http(url, 'GET', `/v1/agents/${agent.agentId}/identity_transitions?limit=2`, { token });
    expect(first.status).toBe(200);
    expect(first.body.data.map((t: any) => [t.from_level, t.to_level, t.reason])).toEqual([
      ['MAINNET_ATTESTED', 'SANDBOX_UNVERIFIED', 'r3'],
      ['MAINNET_BASIC', 'MAINNET_ATTESTED', 'r2'],
    ]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await http(
      url,
      'GET',
      `/v1/agents/${agent.agentId}/identity_transitions?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token },
    );
    expect(second.body.data.map((t: any) => [t.from_level, t.to_level, t.reason])).toEqual([
      ['SANDBOX_UNVERIFIED', 'MAINNET_BASIC', 'r1'],
    ]);
    expect(second.body.next_cursor).toBeNull();
    expect(first.body.data[0]).toMatchObject({ agent_id: agent.agentId, actor: expect.stringContaining('operator') });
    expectProblem(
      await http(url, 'GET', `/v1/agents/${uniqueAgentId('ghost')}/identity_transitions`, { token }),
      404,
      'agent_not_found',
    );
  });
});
