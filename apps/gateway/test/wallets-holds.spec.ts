import { DomainError, errors } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import { expectProblem, operator, registerAgent, TestAgent, uniqueAgentId } from './harness';
import { alice, bob, freshKey, h, signed, useWalletsHarness, wallet } from './wallets-setup';

// Holds (create, release, consume), deposits and frozen agents through app.inject(), as wallets.spec.ts.

useWalletsHarness();

describe('POST /v1/wallets/{agent_id}/holds', () => {
  it('should create a hold with expires_at and reference, lowercase status', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: wallet(alice, '/holds'),
      headers: operator(),
      payload: { amount: '30', currency: 'CREDIT', expires_at: '2030-01-01T00:00:00.000Z', reference: 'ctr_1', idempotency_key: freshKey() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      hold_id: expect.stringMatching(/^hld_/),
      status: 'active',
      expires_at: '2030-01-01T00:00:00.000Z',
      reference: 'ctr_1',
      consumed_amount: null,
      released_amount: null,
      consumed_to_agent_id: null,
    });
    expect(h.wallet.lastCall<walletV1.CreateHoldRequest>('createHold').request.expiresAt).toEqual(new Date('2030-01-01T00:00:00.000Z'));
  });

  it('should answer 400 validation_failed for a malformed expires_at', async () => {
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/holds'), headers: operator(), payload: { amount: '1', currency: 'CREDIT', expires_at: 'tomorrow', idempotency_key: 'k' } }),
      400,
      'validation_failed',
    );
  });
});

describe('POST /v1/wallets/{agent_id}/holds/{hold_id}/release', () => {
  it('should release with the key in the header and no body at all', async () => {
    const key = freshKey();
    const url = wallet(alice, '/holds/hld_x1/release');
    const res = await h.app.inject({ method: 'POST', url, headers: { ...alice.signedHeaders('POST', url, ''), 'idempotency-key': key } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hold_id: 'hld_x1', status: 'released', released_amount: '30' });
    expect(h.wallet.lastCall('releaseHold').request).toEqual({ agentId: alice.agentId, holdId: 'hld_x1', idempotencyKey: key });
  });

  it('should answer 409 invalid_state with current and wanted', async () => {
    h.wallet.failNext('releaseHold', errors.invalidState('hold', 'consumed', 'released'));
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/holds/hld_x1/release'), headers: operator(), payload: { idempotency_key: freshKey() } }),
      409,
      'invalid_state',
    );
    expect(problem).toMatchObject({ current: 'consumed', wanted: 'released' });
  });

  it('should require a key when neither body nor header has one', async () => {
    expectProblem(await h.app.inject({ method: 'POST', url: wallet(alice, '/holds/hld_x1/release'), headers: operator() }), 400, 'idempotency_key_required');
  });
});

describe('POST /v1/wallets/{agent_id}/holds/{hold_id}/consume', () => {
  it('should consume part of the hold to another agent', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/holds/hld_c1/consume'), { to_agent_id: bob.agentId, amount: '20', idempotency_key: freshKey() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'consumed', consumed_amount: '20', released_amount: '10', consumed_to_agent_id: bob.agentId });
    expect(h.wallet.lastCall('consumeHold').request).toMatchObject({ holdId: 'hld_c1', toAgentId: bob.agentId, amount: '20' });
  });

  it('should pass an absent amount as absent (all of the hold) and map amount_exceeds_hold to 400', async () => {
    await h.app.inject({ method: 'POST', url: wallet(alice, '/holds/hld_c2/consume'), headers: operator(), payload: { to_agent_id: bob.agentId, idempotency_key: freshKey() } });
    expect(h.wallet.lastCall<walletV1.ConsumeHoldRequest>('consumeHold').request.amount).toBeUndefined();
    h.wallet.failNext('consumeHold', errors.invalidArgument('amount_exceeds_hold', 'amount is more than the hold'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/holds/hld_c3/consume'), headers: operator(), payload: { to_agent_id: bob.agentId, amount: '99', idempotency_key: freshKey() } }),
      400,
      'amount_exceeds_hold',
    );
  });
});

describe('deposits', () => {
  it('POST /v1/wallets/{agent_id}/deposits should create a pending deposit with its method', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/deposits'), { amount: '100', currency: 'CREDIT', method: 'bank', idempotency_key: freshKey() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ deposit_id: expect.stringMatching(/^dep_/), method: 'bank', status: 'pending', reference: null, journal_entry_id: null });
    expect(h.wallet.lastCall<walletV1.CreateDepositRequest>('createDeposit').request.method).toBe(walletV1.DepositMethod.DEPOSIT_METHOD_BANK);
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/deposits'), headers: operator(), payload: { amount: '1', currency: 'CREDIT', method: 'cash', idempotency_key: 'k' } }),
      400,
      'validation_failed',
    );
  });

  it('GET /v1/wallets/{agent_id}/deposits should page, filter by status and pass limit and cursor', async () => {
    const res = await signed(alice, 'GET', wallet(alice, '/deposits?limit=1&cursor=abc&status=pending'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ status: 'pending' })], next_cursor: 'next-page' });
    expect(h.wallet.lastCall('listDeposits').request).toEqual({
      agentId: alice.agentId,
      page: { limit: 1, cursor: 'abc' },
      status: walletV1.DepositStatus.DEPOSIT_STATUS_PENDING,
    });
    const all = await h.app.inject({ method: 'GET', url: wallet(alice, '/deposits'), headers: operator() });
    expect(all.json()).toMatchObject({ data: [{ status: 'confirmed', journal_entry_id: 'jrn_1' }, { status: 'pending' }], next_cursor: null });
    expectProblem(await h.app.inject({ method: 'GET', url: wallet(alice, '/deposits?limit=0'), headers: operator() }), 400, 'validation_failed');
  });

  it('POST /v1/wallets/{agent_id}/deposits/{deposit_id}/confirm should be operator-only', async () => {
    const ok = await h.app.inject({ method: 'POST', url: wallet(alice, '/deposits/dep_1/confirm'), headers: operator(), payload: { idempotency_key: freshKey() } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ deposit_id: 'dep_1', status: 'confirmed', journal_entry_id: expect.stringMatching(/^jrn_/) });
    expectProblem(await signed(alice, 'POST', wallet(alice, '/deposits/dep_1/confirm'), { idempotency_key: freshKey() }), 403, 'operator_token_required');
  });

  it('POST /v1/wallets/{agent_id}/deposits/{deposit_id}/expire should be operator-only', async () => {
    const ok = await h.app.inject({ method: 'POST', url: wallet(alice, '/deposits/dep_2/expire'), headers: operator({ 'idempotency-key': freshKey() }) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ deposit_id: 'dep_2', status: 'expired' });
    expectProblem(await signed(alice, 'POST', wallet(alice, '/deposits/dep_2/expire'), { idempotency_key: freshKey() }), 403, 'operator_token_required');
  });
});

describe('frozen agents', () => {
  it('should refuse a frozen agent’s signed mutations with 403 agent_frozen and still serve its reads', async () => {
    const carol = new TestAgent(uniqueAgentId('carol'));
    await registerAgent(h.app, carol);
    await h.app.inject({ method: 'POST', url: `/v1/agents/${carol.agentId}/freeze`, headers: operator(), payload: { reason: 'review' } });
    const before = h.wallet.calls.length;
    expectProblem(await signed(carol, 'POST', wallet(carol, '/faucet'), { amount: '1', category: 'f', idempotency_key: freshKey() }), 403, 'agent_frozen');
    expect(h.wallet.calls.length).toBe(before);
    expect((await signed(carol, 'GET', wallet(carol))).statusCode).toBe(200);
  });

  it('should pass the service’s agent_frozen through for operator calls without X-Agent-Id', async () => {
    h.wallet.failNext('transfer', new DomainError(status.PERMISSION_DENIED, 'agent_frozen', 'agent is frozen'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/transfer'), headers: operator(), payload: { to_agent_id: bob.agentId, amount: '1', currency: 'CREDIT', idempotency_key: freshKey() } }),
      403,
      'agent_frozen',
    );
  });
});
