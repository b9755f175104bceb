import { bootStack, type Stack } from './stack';
import { expectProblem, http } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';

// Agents beyond the spec's endpoint list, end to end over HTTP: freezing, key revocation, rate
// limits and the public documents (the spec endpoints: agents.e2e.spec.ts).
// Test names carry "<METHOD> <path>" so tools/spec-coverage can tell which endpoints are tested.
let stack: Stack;
let url: string;
let token: string;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
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

describe('freeze, unfreeze and key revocation (operator, beyond the spec list)', () => {
  it('POST /v1/agents/{agent_id}/freeze and /unfreeze', async () => {
    const agent = new RawAgent(uniqueAgentId('icy'));
    await register(agent);
    const frozen = await http(url, 'POST', `/v1/agents/${agent.agentId}/freeze`, { token, body: { reason: 'fraud review' } });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ status: 'frozen', frozen_reason: 'fraud review' });
    expectProblem(
      await http(url, 'POST', `/v1/agents/${agent.agentId}/freeze`, { token, body: { reason: 'again' } }),
      409,
      'invalid_state',
    );
    // Reads still work for a frozen agent.
    const path = `/v1/agents/${agent.agentId}`;
    expect((await http(url, 'GET', path, { headers: agent.signedHeaders('GET', path) })).status).toBe(200);
    const thawed = await http(url, 'POST', `/v1/agents/${agent.agentId}/unfreeze`, { token, body: { reason: 'cleared' } });
    expect(thawed.body).toMatchObject({ status: 'active', frozen_reason: null });
  });

  it('POST /v1/agents/{agent_id}/keys/{pubkey}/revoke', async () => {
    const agent = new RawAgent(uniqueAgentId('rotator'));
    const spare = new RawAgent(agent.agentId);
    const body = { ...agent.registrationBody(), pubkey_set: [spare.publicKey] };
    expect((await http(url, 'POST', '/v1/agents', { token, body })).status).toBe(201);

    const path = `/v1/agents/${agent.agentId}`;
    expect((await http(url, 'GET', path, { headers: spare.signedHeaders('GET', path) })).status).toBe(200);

    const revoked = await http(url, 'POST', `/v1/agents/${agent.agentId}/keys/${encodeURIComponent(spare.publicKey)}/revoke`, {
      token,
      body: { reason: 'rotated' },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.keys).toEqual(
      expect.arrayContaining([expect.objectContaining({ pubkey: spare.publicKey, status: 'revoked', revoked_reason: 'rotated' })]),
    );
    // The revoked key no longer signs for the agent; the primary still does.
    expectProblem(await http(url, 'GET', path, { headers: spare.signedHeaders('GET', path) }), 403, 'agent_signature_invalid');
    expect((await http(url, 'GET', path, { headers: agent.signedHeaders('GET', path) })).status).toBe(200);
    expectProblem(
      await http(url, 'POST', `/v1/agents/${agent.agentId}/keys/${encodeURIComponent(agent.publicKey)}/revoke`, {
        token,
        body: { reason: 'oops' },
      }),
      409,
      'primary_key_revocation',
    );
  });
});

describe('rate limits', () => {
  it('a SANDBOX_UNVERIFIED agent gets 120 requests a minute, then 429 with Retry-After', async () => {
    const agent = new RawAgent(uniqueAgentId('chatty'));
    await register(agent);
    const path = `/v1/agents/${agent.agentId}`;
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const res = await http(url, 'GET', path, { headers: agent.signedHeaders('GET', path) });
      statuses.push(res.status);
      if (res.status === 429) {
        const problem = expectProblem(res, 429, 'rate_limited');
        expect(problem.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  });
});

describe('public documents', () => {
  it('GET /health reports every service SERVING and the exchange public key', async () => {
    const res = await http(url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', environment: 'sandbox' });
    expect(res.body.services.identity.status).toBe('SERVING');
    expect(Buffer.from(res.body.exchange_public_key, 'base64')).toHaveLength(32);
  });

  it('GET /openapi.json describes the Agents routes', async () => {
    const res = await http(url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/agents', '/v1/agents/{agent_id}']));
  });

  it('GET /skill.md, GET /quickstart.md and GET /api-reference are served without a token', async () => {
    const skill = await http(url, 'GET', '/skill.md');
    expect(skill.status).toBe(200);
    expect(skill.headers.get('content-type')).toContain('text/markdown');
    expect(skill.text).toContain('proof_signature');
    expect((await http(url, 'GET', '/quickstart.md')).status).toBe(200);
    const ref = await http(url, 'GET', '/api-reference');
    expect(ref.status).toBe(200);
    expect(ref.headers.get('content-type')).toContain('text/html');
  });
});
