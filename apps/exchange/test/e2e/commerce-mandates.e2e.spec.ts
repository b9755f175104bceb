import { CommerceHttp } from './commerce-http';
import { expectProblem } from './http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// The mandates endpoints through the gateway: signed by the signer over canonical JSON
// (/skill.md "Mandates"), read by its parties and the operator, autonomy replaced by the signer.

let stack: Stack;
let c: CommerceHttp;
let signer: RawAgent;
let agent: RawAgent;
let stranger: RawAgent;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  c = new CommerceHttp(stack.baseUrl, stack.operatorToken);
  [signer, agent, stranger] = await Promise.all([c.newAgent('signer'), c.newAgent('agent'), c.newAgent('stranger')]);
});

afterAll(async () => {
  await stack?.stop();
});

describe('POST /v1/mandates', () => {
  it('creates an active mandate from a valid signature', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '25.5', total: '100', skus: ['pot_ceramic'] });
    expect(m).toMatchObject({
      signer_agent_id: signer.agentId,
      agent_id: agent.agentId,
      status: 'active',
      limits: { per_transaction: '25.5', total: '100', currency: 'USD' },
      scope: { skus: ['pot_ceramic'] },
    });
    expect(m.mandate_id).toMatch(/^mdt_/);
  });

  it('400 mandate_signature_invalid when signed by someone else, 403 when another agent posts it', async () => {
    const body = c.mandateBody(signer, agent, { perTransaction: '10', total: '20' });
    const forged = { ...body, signature: c.mandateBody(stranger, agent, { perTransaction: '10', total: '20' }).signature };
    expectProblem(await c.as(signer, 'POST', '/v1/mandates', forged), 400, 'mandate_signature_invalid');
    expectProblem(await c.as(stranger, 'POST', '/v1/mandates', body), 403, 'acting_agent_mismatch');
    // A tampered limit no longer matches the signature.
    expectProblem(await c.as(signer, 'POST', '/v1/mandates', { ...body, limits: { ...(body.limits as object), total: '2000' } }), 400, 'mandate_signature_invalid');
  });
});

describe('GET /v1/mandates/{mandate_id}', () => {
  it('is read by the signer, the agent and the operator', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    for (const read of [c.as(signer, 'GET', `/v1/mandates/${m.mandate_id}`), c.as(agent, 'GET', `/v1/mandates/${m.mandate_id}`), c.op('GET', `/v1/mandates/${m.mandate_id}`)]) {
      expect((await c.expectStatus(read, 200)).mandate_id).toBe(m.mandate_id);
    }
  });

  it('404 mandate_not_found for a stranger (as for an unknown id)', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    expectProblem(await c.as(stranger, 'GET', `/v1/mandates/${m.mandate_id}`), 404, 'mandate_not_found');
  });
});

describe('GET /v1/mandates', () => {
  it('lists the mandates an agent signed, paginated, filtered by status', async () => {
    const a = await c.createMandate(signer, agent, { perTransaction: '1', total: '2' });
    const b = await c.createMandate(signer, agent, { perTransaction: '1', total: '2' });
    const first = await c.expectStatus(c.as(signer, 'GET', `/v1/mandates?signer_agent_id=${encodeURIComponent(signer.agentId)}&status=active&limit=1`), 200);
    expect(first.data).toHaveLength(1);
    const second = await c.expectStatus(
      c.as(signer, 'GET', `/v1/mandates?signer_agent_id=${encodeURIComponent(signer.agentId)}&status=active&limit=200&cursor=${encodeURIComponent(first.next_cursor)}`),
      200,
    );
    const ids = [...first.data, ...second.data].map((m: { mandate_id: string }) => m.mandate_id);
    expect(ids).toEqual(expect.arrayContaining([a.mandate_id, b.mandate_id]));
    const none = await c.expectStatus(c.as(stranger, 'GET', `/v1/mandates`), 200);
    expect(none.data).toEqual([]);
  });

  it('400 for an unknown status', async () => {
    expectProblem(await c.as(signer, 'GET', '/v1/mandates?status=bogus'), 400, 'validation_failed');
  });
});

describe('GET /v1/mandates/{mandate_id}/autonomy', () => {
  it('reads the autonomy settings', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    const res = await c.expectStatus(c.as(agent, 'GET', `/v1/mandates/${m.mandate_id}/autonomy`), 200);
    expect(res).toMatchObject({ mandate_id: m.mandate_id, autonomy: { mode: 'autonomous', approval_for_new_merchants: false } });
  });

  it('404 for a stranger', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    expectProblem(await c.as(stranger, 'GET', `/v1/mandates/${m.mandate_id}/autonomy`), 404, 'mandate_not_found');
  });
});

describe('PUT /v1/mandates/{mandate_id}/autonomy', () => {
  it('is replaced by the signer', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    const next = { mode: 'step_up', step_up_threshold: { amount: '5', currency: 'USD' }, approval_for_new_merchants: true, daily_limit: '15' };
    const res = await c.expectStatus(c.as(signer, 'PUT', `/v1/mandates/${m.mandate_id}/autonomy`, next), 200);
    expect(res.autonomy).toMatchObject(next);
    expect((await c.expectStatus(c.as(agent, 'GET', `/v1/mandates/${m.mandate_id}/autonomy`), 200)).autonomy).toMatchObject(next);
  });

  it('403 not_mandate_signer for the agent it was granted to', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    expectProblem(await c.as(agent, 'PUT', `/v1/mandates/${m.mandate_id}/autonomy`, { mode: 'autonomous', step_up_threshold: { amount: '5', currency: 'USD' }, approval_for_new_merchants: false }), 403, 'not_mandate_signer');
  });
});

describe('POST /v1/mandates/{mandate_id}/status', () => {
  it('pauses (new checkouts refused), resumes, and revokes for good', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '20', total: '40' });
    const path = `/v1/mandates/${m.mandate_id}/status`;
    expect((await c.expectStatus(c.as(signer, 'POST', path, { status: 'paused' }), 200)).status).toBe('paused');
    const refused = await c.createCheckout(agent, c.checkoutBody(m.mandate_id, [['pot_ceramic', 1]]));
    expectProblem(refused, 403, 'mandate_inactive');
    expect((await c.expectStatus(c.as(signer, 'POST', path, { status: 'active' }), 200)).status).toBe('active');
    await c.expectStatus(c.createCheckout(agent, c.checkoutBody(m.mandate_id, [['pot_ceramic', 1]])), 201);
    expect((await c.expectStatus(c.op('POST', path, { status: 'revoked' }), 200)).status).toBe('revoked');
    expectProblem(await c.as(signer, 'POST', path, { status: 'active' }), 409, 'invalid_state');
  });

  it('403 not_mandate_signer for the agent, and the operator may not resume', async () => {
    const m = await c.createMandate(signer, agent, { perTransaction: '10', total: '20' });
    const path = `/v1/mandates/${m.mandate_id}/status`;
    expectProblem(await c.as(agent, 'POST', path, { status: 'paused' }), 403, 'not_mandate_signer');
    await c.expectStatus(c.op('POST', path, { status: 'paused' }), 200);
    expectProblem(await c.op('POST', path, { status: 'active' }), 403, 'not_mandate_signer');
  });
});
