import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Identity level changes and transitions, key revocation, freeze and unfreeze through
// app.inject(), as agents.spec.ts.

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('POST /v1/agents/{agent_id}/identity_level', () => {
  it('should change the level, then map an illegal move to 409 invalid_state with current and wanted', async () => {
    const agent = new TestAgent(uniqueAgentId('climber'));
    await registerAgent(h.app, agent);
    const url = `/v1/agents/${agent.agentId}/identity_level`;
    const up = await h.app.inject({ method: 'POST', url, headers: operator(), payload: { identity_level: 'MAINNET_BASIC', reason: 'kyc' } });
    expect(up.statusCode).toBe(200);
    expect(up.json().identity_level).toBe('MAINNET_BASIC');

    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url, headers: operator(), payload: { identity_level: 'MAINNET_VERIFIED', reason: 'skip' } }),
      409,
      'invalid_state',
    );
    expect(problem).toMatchObject({ current: 'MAINNET_BASIC', wanted: 'MAINNET_VERIFIED', detail: 'agent is MAINNET_BASIC, cannot become MAINNET_VERIFIED' });
  });

  it('should require a reason and 404 an unknown agent', async () => {
    const agent = new TestAgent(uniqueAgentId('noreason'));
    await registerAgent(h.app, agent);
    const missing = expectProblem(
      await h.app.inject({ method: 'POST', url: `/v1/agents/${agent.agentId}/identity_level`, headers: operator(), payload: { identity_level: 'MAINNET_BASIC' } }),
      400,
      'validation_failed',
    );
    expect(missing.errors).toEqual([{ pointer: '/reason', message: 'is required' }]);
    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: `/v1/agents/${uniqueAgentId('ghost')}/identity_level`,
        headers: operator(),
        payload: { identity_level: 'MAINNET_BASIC', reason: 'x' },
      }),
      404,
      'agent_not_found',
    );
  });
});

describe('GET /v1/agents/{agent_id}/identity_transitions', () => {
  it('should list transitions newest first with actor and null next_cursor at the end', async () => {
    const agent = new TestAgent(uniqueAgentId('history'));
    await registerAgent(h.app, agent);
    const url = `/v1/agents/${agent.agentId}/identity_level`;
    await h.app.inject({ method: 'POST', url, headers: operator(), payload: { identity_level: 'MAINNET_BASIC', reason: 'r1' } });
    await h.app.inject({ method: 'POST', url, headers: operator(), payload: { identity_level: 'SANDBOX_UNVERIFIED', reason: 'r2' } });
    const res = await h.app.inject({ method: 'GET', url: `/v1/agents/${agent.agentId}/identity_transitions?limit=1`, headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        transition_id: expect.any(String),
        agent_id: agent.agentId,
        from_level: 'MAINNET_BASIC',
        to_level: 'SANDBOX_UNVERIFIED',
        reason: 'r2',
        actor: 'operator:default',
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
    const next = await h.app.inject({
      method: 'GET',
      url: `/v1/agents/${agent.agentId}/identity_transitions?limit=1&cursor=${res.json().next_cursor}`,
      headers: operator(),
    });
    expect(next.json()).toMatchObject({ data: [{ reason: 'r1' }], next_cursor: null });
    expectProblem(await h.app.inject({ method: 'GET', url: `/v1/agents/${uniqueAgentId('ghost')}/identity_transitions`, headers: operator() }), 404, 'agent_not_found');
  });
});

describe('POST /v1/agents/{agent_id}/keys/{pubkey}/revoke', () => {
  it('should revoke a key given as URL-encoded base64 or base64url, and refuse the primary with 409', async () => {
    const agent = new TestAgent(uniqueAgentId('rotator'));
    const spare = new TestAgent(agent.agentId);
    const spare2 = new TestAgent(agent.agentId);
    await registerAgent(h.app, agent, { pubkey_set: [spare.publicKey, spare2.publicKey] });

    const res = await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${agent.agentId}/keys/${encodeURIComponent(spare.publicKey)}/revoke`,
      headers: operator(),
      payload: { reason: 'rotated' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().keys).toContainEqual(
      expect.objectContaining({ pubkey: spare.publicKey, status: 'revoked', revoked_reason: 'rotated', revoked_at: expect.stringMatching(/Z$/) }),
    );
    expect(res.json().pubkey_set).toEqual([spare.publicKey, spare2.publicKey]);

    const urlSafe = Buffer.from(spare2.publicKey, 'base64').toString('base64url');
    const viaUrlSafe = await h.app.inject({
      method: 'POST',
      url: `/v1/agents/${agent.agentId}/keys/${urlSafe}/revoke`,
      headers: operator(),
      payload: { reason: 'rotated too' },
    });
    expect(viaUrlSafe.statusCode).toBe(200);
    expect(viaUrlSafe.json().keys).toContainEqual(expect.objectContaining({ pubkey: spare2.publicKey, status: 'revoked' }));

    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: `/v1/agents/${agent.agentId}/keys/${encodeURIComponent(agent.publicKey)}/revoke`,
        headers: operator(),
        payload: { reason: 'oops' },
      }),
      409,
      'primary_key_revocation',
    );
  });
});

describe('POST /v1/agents/{agent_id}/freeze and /unfreeze', () => {
  it('should freeze with a reason, 409 a second freeze, and unfreeze', async () => {
    const agent = new TestAgent(uniqueAgentId('icy'));
    await registerAgent(h.app, agent);
    const frozen = await h.app.inject({ method: 'POST', url: `/v1/agents/${agent.agentId}/freeze`, headers: operator(), payload: { reason: 'fraud review' } });
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json()).toMatchObject({ status: 'frozen', frozen_reason: 'fraud review' });
    const again = expectProblem(
      await h.app.inject({ method: 'POST', url: `/v1/agents/${agent.agentId}/freeze`, headers: operator(), payload: { reason: 'again' } }),
      409,
      'invalid_state',
    );
    expect(again).toMatchObject({ current: 'frozen', wanted: 'frozen' });
    const thawed = await h.app.inject({ method: 'POST', url: `/v1/agents/${agent.agentId}/unfreeze`, headers: operator(), payload: { reason: 'cleared' } });
    expect(thawed.statusCode).toBe(200);
    expect(thawed.json()).toMatchObject({ status: 'active', frozen_reason: null });
  });

  it('should require the reason body', async () => {
    const agent = new TestAgent(uniqueAgentId('noreason2'));
    await registerAgent(h.app, agent);
    expectProblem(await h.app.inject({ method: 'POST', url: `/v1/agents/${agent.agentId}/freeze`, headers: operator() }), 400, 'validation_failed');
  });
});
