import { errors } from '@exchange/platform';
import { marketV1, marketV1Integrity } from '@exchange/proto';
import { initialSnapshot } from './fake-market-kit';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// Market integrity through the gateway (fake market): the five /v1/market-integrity routes
// (mapping, operator-only auth, validation) and the read_only / kill-switch guard on mutations.
// The guard's cache is off here (GATEWAY_INTEGRITY_CACHE_MS=0) so the fake's state is seen at once,
// except in the last block, which checks that the gateway's own changes refresh a cached view.

const I = marketV1Integrity;
const M = marketV1;
let h: Harness;
let agent: TestAgent;

beforeAll(async () => {
  h = await startHarness({ env: { GATEWAY_INTEGRITY_CACHE_MS: '0' } });
  agent = new TestAgent(uniqueAgentId('integrity'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.market.part2.snapshot = initialSnapshot();
});

const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  h.app.inject({ method, url, headers: operator(), ...(payload === undefined ? {} : { payload: payload as object }) });
function signed(method: 'GET' | 'POST', url: string, body?: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: text }),
  });
}
const setSwitch = (name: string, enabled: boolean) => {
  h.market.part2.snapshot = {
    ...h.market.part2.snapshot,
    killSwitches: h.market.part2.snapshot.killSwitches.map((k) => (k.name === name ? { ...k, enabled } : k)),
  };
};
const contractBody = { title: 'x', budget: { amount: '1', currency: 'CREDIT' }, deadline: '2030-01-01T00:00:00.000Z', acceptance_criteria: 'y' };

describe('GET /v1/market-integrity/state', () => {
  it('should answer the snapshot with all six switches to an agent', async () => {
    const res = await signed('GET', '/v1/market-integrity/state');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      state: 'normal',
      since: '2026-11-21T18:00:00.000Z',
      reason: null,
      set_by: null,
      kill_switches: ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'].map((name) => ({
        name,
        enabled: false,
        reason: null,
        set_by: null,
        updated_at: null,
      })),
      wallet_controls_synced: true,
    });
  });

  it('should answer 401 without credentials', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/market-integrity/state' }), 401, 'unauthenticated');
  });
});

describe('POST /v1/market-integrity/state', () => {
  it('should map the state and reason, send the operator as actor and answer the new snapshot', async () => {
    const res = await asOperator('POST', '/v1/market-integrity/state', { state: 'elevated', reason: 'unusual volume' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'elevated', reason: 'unusual volume', set_by: 'operator:default' });
    const call = h.market.lastCall<marketV1Integrity.SetIntegrityStateRequest>('setIntegrityState');
    expect(call.request).toEqual({ state: I.IntegrityState.INTEGRITY_STATE_ELEVATED, reason: 'unusual volume', idempotencyKey: '' });
    expect(call.ctx.actor).toBe('operator:default');
  });

  it('should answer 409 invalid_state from the market with current and wanted', async () => {
    const body = expectProblem(await asOperator('POST', '/v1/market-integrity/state', { state: 'normal', reason: 'again' }), 409, 'invalid_state');
    expect(body).toMatchObject({ current: expect.any(String), wanted: expect.any(String) });
  });

  it('should answer 403 to an agent (operator only)', async () => {
    expectProblem(await signed('POST', '/v1/market-integrity/state', { state: 'elevated', reason: 'x' }), 403, 'operator_token_required');
  });

  it.each([
    ['an unknown state', { state: 'panic', reason: 'x' }, '/state'],
    ['a missing reason', { state: 'elevated' }, '/reason'],
    ['an empty reason', { state: 'elevated', reason: '' }, '/reason'],
    ['a reason over 500 characters', { state: 'elevated', reason: 'r'.repeat(501) }, '/reason'],
    ['an unknown field', { state: 'elevated', reason: 'x', force: true }, '/force'],
  ])('should answer 400 validation_failed for %s', async (_name, payload, pointer) => {
    const before = h.market.calls.length;
    const body = expectProblem(await asOperator('POST', '/v1/market-integrity/state', payload), 400, 'validation_failed');
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(h.market.calls.slice(before).map((c) => c.method)).not.toContain('setIntegrityState');
  });
});

describe('POST /v1/market-integrity/kill-switches', () => {
  it('should map the switch and answer the snapshot with it on', async () => {
    const res = await asOperator('POST', '/v1/market-integrity/kill-switches', { name: 'faucet', enabled: true, reason: 'abuse', idempotency_key: 'ks-1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().kill_switches[4]).toMatchObject({ name: 'faucet', enabled: true, reason: 'abuse', set_by: 'operator:default' });
    expect(h.market.lastCall('setKillSwitch').request).toEqual({ name: 'faucet', enabled: true, reason: 'abuse', idempotencyKey: 'ks-1' });
  });

  it('should answer 400 for an unknown switch name', async () => {
    expectProblem(await asOperator('POST', '/v1/market-integrity/kill-switches', { name: 'everything', enabled: true, reason: 'x' }), 400, 'validation_failed');
  });
});

describe('POST /v1/market-integrity/erroneous-clear', () => {
  it('should answer the corrected contract and the correction receipt', async () => {
    const created = await asOperator('POST', '/v1/contracts', { ...contractBody, buyer_id: agent.agentId });
    const id = created.json().contract_id;
    const settled = h.market.contracts.get(id)!;
    h.market.contracts.set(id, { ...settled, status: M.ContractStatus.CONTRACT_STATUS_SETTLED, sellerId: 'acme:agent:seller-1', receiptId: 'rcpt_fake-settle' });
    const res = await asOperator('POST', '/v1/market-integrity/erroneous-clear', { contract_id: id, reason: 'forged report' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.contract).toMatchObject({
      contract_id: id,
      status: 'corrected',
      corrected_at: expect.any(String),
      correction_receipt_id: body.receipt.receipt_id,
      correction_reason: 'forged report',
    });
    expect(body.receipt).toMatchObject({ kind: 'correction', corrects_receipt_id: 'rcpt_fake-settle', reason: 'forged report', contract_id: id });
  });

  it('should answer 409 invalid_state for a contract that is not settled and 404 for an unknown one', async () => {
    const created = await asOperator('POST', '/v1/contracts', { ...contractBody, buyer_id: agent.agentId });
    expectProblem(await asOperator('POST', '/v1/market-integrity/erroneous-clear', { contract_id: created.json().contract_id, reason: 'x' }), 409, 'invalid_state');
    expectProblem(await asOperator('POST', '/v1/market-integrity/erroneous-clear', { contract_id: 'ctr_nope', reason: 'x' }), 404, 'contract_not_found');
  });
});

describe('GET /v1/market-integrity/audit', () => {
  it('should list entries with parsed details and pass the action filter', async () => {
    await asOperator('POST', '/v1/market-integrity/kill-switches', { name: 'awards', enabled: true, reason: 'audit me' });
    const res = await asOperator('GET', '/v1/market-integrity/audit?action=kill_switch_set&limit=5');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data[0]).toMatchObject({ action: 'kill_switch_set', operator: 'operator:default', reason: 'audit me', subject: 'awards', details: { enabled: true } });
    expect(h.market.lastCall('listIntegrityAudit').request).toEqual({ page: { limit: 5, cursor: '' }, action: 'kill_switch_set' });
  });

  it('should answer 403 to an agent and 400 for an unknown action', async () => {
    expectProblem(await signed('GET', '/v1/market-integrity/audit'), 403, 'operator_token_required');
    expectProblem(await asOperator('GET', '/v1/market-integrity/audit?action=coffee'), 400, 'validation_failed');
  });
});

describe('read_only guard', () => {
  it('should answer every mutation 503 read_only without calling the service, and let reads through', async () => {
    setSwitch('read_only', true);
    const before = h.market.calls.length;
    expectProblem(await signed('POST', '/v1/contracts', contractBody), 503, 'read_only');
    expectProblem(await asOperator('POST', '/v1/wallets/' + agent.agentId + '/faucet', { amount: '1', category: 'x' }), 503, 'read_only');
    expect(h.market.calls.slice(before).map((c) => c.method)).not.toContain('createContract');
    expect((await signed('GET', '/v1/contracts')).statusCode).toBe(200);
  });

  it('should still let the operator change integrity (and switch read-only off)', async () => {
    setSwitch('read_only', true);
    const res = await asOperator('POST', '/v1/market-integrity/kill-switches', { name: 'read_only', enabled: false, reason: 'done' });
    expect(res.statusCode).toBe(200);
    expect((await signed('POST', '/v1/contracts', contractBody)).statusCode).toBe(201);
  });

  it('should answer 401 and 400 before read_only, without asking the market', async () => {
    setSwitch('read_only', true);
    const before = h.market.calls.length;
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/contracts', payload: contractBody }), 401, 'unauthenticated');
    expectProblem(await signed('POST', '/v1/contracts', { ...contractBody, colour: 'red' }), 400, 'validation_failed');
    expect(h.market.calls.length).toBe(before);
  });

  it.each([
    ['new_contracts', 'POST', '/v1/contracts'],
    ['awards', 'POST', '/v1/contracts/ctr_x/award/ofr_y'],
  ])('should answer 503 kill_switch:%s on %s %s', async (name, _m, url) => {
    setSwitch(name, true);
    expectProblem(await asOperator('POST', url, url === '/v1/contracts' ? { ...contractBody, buyer_id: agent.agentId } : {}), 503, `kill_switch:${name}`);
  });

  it('should pre-check the faucet and withdrawals switches on the wallet routes', async () => {
    setSwitch('faucet', true);
    setSwitch('withdrawals', true);
    expectProblem(await asOperator('POST', `/v1/wallets/${agent.agentId}/faucet`, { amount: '1', category: 'x' }), 503, 'kill_switch:faucet');
    expectProblem(
      await asOperator('POST', `/v1/wallets/${agent.agentId}/withdrawals`, { amount: '1', currency: 'CREDIT', payout_destination_id: 'pd_x', idempotency_key: 'w-1' }),
      503,
      'kill_switch:withdrawals',
    );
  });

  it('should not block other mutations for a route switch', async () => {
    setSwitch('new_contracts', true);
    const res = await asOperator('POST', '/v1/coordination/threads', { title: 'hello', created_by: agent.agentId });
    expect(res.statusCode).not.toBe(503);
  });

  it('should let mutations through when the market cannot answer the integrity state', async () => {
    setSwitch('read_only', true);
    h.market.failNext('getIntegrityState', errors.unavailable('unavailable', 'down'));
    expect((await signed('POST', '/v1/contracts', contractBody)).statusCode).toBe(201);
  });

  it.each(['market_halted', 'market_restricted', 'kill_switch:settlements', 'read_only'])(
    'should keep the service’s UNAVAILABLE code %s as 503',
    async (code) => {
      h.market.failNext('createContract', errors.unavailable(code, `refused: ${code}`));
      expectProblem(await signed('POST', '/v1/contracts', contractBody), 503, code);
    },
  );
});

describe('read_only guard with a cached view', () => {
  let cached: Harness;
  beforeAll(async () => {
    cached = await startHarness({ identity: h.identity, env: { GATEWAY_INTEGRITY_CACHE_MS: '600000' } });
  });
  afterAll(async () => {
    await cached.close();
  });

  it('should see its own kill-switch changes at once', async () => {
    const url = `/v1/wallets/${agent.agentId}/faucet`;
    const payload = { amount: '1', category: 'x', idempotency_key: 'cached-faucet-1' };
    expect((await cached.app.inject({ method: 'POST', url, headers: operator(), payload })).statusCode).not.toBe(503);
    const set = await cached.app.inject({ method: 'POST', url: '/v1/market-integrity/kill-switches', headers: operator(), payload: { name: 'read_only', enabled: true, reason: 'maintenance' } });
    expect(set.statusCode).toBe(200);
    expectProblem(await cached.app.inject({ method: 'POST', url, headers: operator(), payload }), 503, 'read_only');
    await cached.app.inject({ method: 'POST', url: '/v1/market-integrity/kill-switches', headers: operator(), payload: { name: 'read_only', enabled: false, reason: 'over' } });
    expect((await cached.app.inject({ method: 'POST', url, headers: operator(), payload })).statusCode).not.toBe(503);
  });
});
