import { errors } from '@exchange/platform';
import { expectProblem, operator } from './harness';
import { alice, bob, freshKey, h, ISO, signed, useWalletsHarness, wallet } from './wallets-setup';

// The Wallets area through app.inject() against real grpc-js servers (fake identity and fake
// wallet-ledger): HTTP ⇄ gRPC mapping, idempotency keys, auth rules and error mapping. Here:
// balance, faucet, idempotency keys, transfers and currencies; holds, deposits and frozen agents in
// wallets-holds.spec.ts; payouts, withdrawals, receipts and the ledger check in wallets-payouts.spec.ts.

useWalletsHarness();

describe('GET /v1/wallets/{agent_id}', () => {
  it('should answer the balance snapshot to the owner and to an operator', async () => {
    await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '40', category: 'read', idempotency_key: freshKey() } });
    const own = await signed(alice, 'GET', wallet(alice));
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({
      agent_id: alice.agentId,
      balances: [{ currency: 'CREDIT', available: expect.any(String), held: '0', total: expect.any(String) }],
      as_of: expect.stringMatching(ISO),
    });
    expect((await h.app.inject({ method: 'GET', url: wallet(alice), headers: operator() })).statusCode).toBe(200);
    expect(h.wallet.lastCall('getBalance').request).toEqual({ agentId: alice.agentId });
  });

  it('should refuse another agent’s wallet to an agent-signed request (403 forbidden) and no credentials (401)', async () => {
    expectProblem(await signed(bob, 'GET', wallet(alice)), 403, 'forbidden');
    expectProblem(await h.app.inject({ method: 'GET', url: wallet(alice) }), 401, 'unauthenticated');
  });

  it('should validate the agent id in the path', async () => {
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/wallets/not-an-agent', headers: operator() }), 400, 'validation_failed');
  });
});

describe('POST /v1/wallets/{agent_id}/faucet', () => {
  it('should map the body to Faucet and answer 201 with the grant', async () => {
    const key = freshKey();
    const res = await signed(alice, 'POST', wallet(alice, '/faucet'), { amount: '50', category: 'testing', idempotency_key: key });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.json()).toEqual({
      faucet_grant_id: expect.stringMatching(/^fgr_/),
      agent_id: alice.agentId,
      amount: '50',
      currency: 'CREDIT',
      category: 'testing',
      journal_entry_id: expect.stringMatching(/^jrn_/),
      granted_today: '50',
      remaining_today: '150',
      resets_at: '2026-11-22T00:00:00.000Z',
      created_at: expect.stringMatching(ISO),
    });
    const call = h.wallet.lastCall('faucet');
    expect(call.request).toEqual({ agentId: alice.agentId, amount: '50', currency: '', category: 'testing', idempotencyKey: key });
    expect(call.ctx).toMatchObject({ actor: `agent:${alice.agentId}`, agentId: alice.agentId });
  });

  it('should replay the same key and body with Idempotent-Replayed: true and the same body', async () => {
    const body = { amount: '5', category: 'replay', idempotency_key: freshKey() };
    const first = await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: body });
    const again = await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: body });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('should answer 422 idempotency_key_reused for the same key with another body', async () => {
    const key = freshKey();
    await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '1', category: 'c', idempotency_key: key } });
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '2', category: 'c', idempotency_key: key } }),
      422,
      'idempotency_key_reused',
    );
  });

  it('should answer 403 faucet_cap_exceeded with resets_at and the other details as problem members', async () => {
    h.wallet.failNext(
      'faucet',
      errors.resourceExhausted('faucet_cap_exceeded', 'faucet cap of 200 CREDIT per day reached for category testing', {
        resets_at: '2026-11-22T00:00:00.000Z',
        remaining_today: '10',
        category: 'testing',
      }),
    );
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '50', category: 'testing', idempotency_key: freshKey() } }),
      403,
      'faucet_cap_exceeded',
    );
    expect(problem).toMatchObject({ resets_at: '2026-11-22T00:00:00.000Z', remaining_today: '10', category: 'testing' });
  });

  it('should keep the service’s 503 codes for kill switches and read-only mode', async () => {
    h.wallet.failNext('faucet', errors.unavailable('kill_switch:faucet', 'the faucet kill switch is on'));
    const killed = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '1', category: 'k', idempotency_key: freshKey() } }),
      503,
      'kill_switch:faucet',
    );
    expect(killed.detail).toBe('the faucet kill switch is on');
    h.wallet.failNext('faucet', errors.unavailable('read_only', 'the exchange is in read-only mode'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '1', category: 'k', idempotency_key: freshKey() } }),
      503,
      'read_only',
    );
  });
});

describe('idempotency keys', () => {
  const url = () => wallet(alice, '/faucet');

  it('should accept the key from the Idempotency-Key header alone', async () => {
    const key = freshKey();
    const res = await h.app.inject({ method: 'POST', url: url(), headers: operator({ 'idempotency-key': key }), payload: { amount: '1', category: 'h' } });
    expect(res.statusCode).toBe(201);
    expect(h.wallet.lastCall<{ idempotencyKey: string }>('faucet').request.idempotencyKey).toBe(key);
  });

  it('should accept the same key in body and header, and refuse two different ones with 400 idempotency_key_mismatch', async () => {
    const key = freshKey();
    expect(
      (await h.app.inject({ method: 'POST', url: url(), headers: operator({ 'idempotency-key': key }), payload: { amount: '1', category: 'h', idempotency_key: key } }))
        .statusCode,
    ).toBe(201);
    const calls = h.wallet.calls.length;
    expectProblem(
      await h.app.inject({ method: 'POST', url: url(), headers: operator({ 'idempotency-key': 'other' }), payload: { amount: '1', category: 'h', idempotency_key: key } }),
      400,
      'idempotency_key_mismatch',
    );
    expect(h.wallet.calls.length).toBe(calls); // refused before any gRPC call
  });

  it('should require a key on balance mutations (400 idempotency_key_required) and check its shape', async () => {
    const missing = expectProblem(await h.app.inject({ method: 'POST', url: url(), headers: operator(), payload: { amount: '1', category: 'h' } }), 400, 'idempotency_key_required');
    expect(missing.errors).toEqual([{ pointer: '/idempotency_key', message: expect.any(String) }]);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      expectProblem(
        await h.app.inject({ method: 'POST', url: url(), headers: operator(), payload: { amount: '1', category: 'h', idempotency_key: bad } }),
        400,
        'invalid_idempotency_key',
      );
    }
    expect(
      (await h.app.inject({ method: 'POST', url: url(), headers: operator(), payload: { amount: '1', category: 'h', idempotency_key: ' ~'.repeat(127) + 'x' } })).statusCode,
    ).toBe(201);
  });

  it('should map idempotency_in_progress (ABORTED) to 409', async () => {
    h.wallet.failNext('transfer', errors.aborted('idempotency_in_progress', 'a request with this idempotency key is still running'));
    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: wallet(alice, '/transfer'),
        headers: operator(),
        payload: { to_agent_id: bob.agentId, amount: '1', currency: 'CREDIT', idempotency_key: freshKey() },
      }),
      409,
      'idempotency_in_progress',
    );
  });
});

describe('POST /v1/wallets/{agent_id}/transfer', () => {
  it('should transfer and answer 201 with memo null when none was sent', async () => {
    await h.app.inject({ method: 'POST', url: wallet(alice, '/faucet'), headers: operator(), payload: { amount: '20', category: 't', idempotency_key: freshKey() } });
    const key = freshKey();
    const res = await signed(alice, 'POST', wallet(alice, '/transfer'), { to_agent_id: bob.agentId, amount: '2.5', currency: 'CREDIT', idempotency_key: key });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      transfer_id: expect.stringMatching(/^trf_/),
      from_agent_id: alice.agentId,
      to_agent_id: bob.agentId,
      amount: '2.5',
      currency: 'CREDIT',
      memo: null,
      journal_entry_id: expect.any(String),
      created_at: expect.stringMatching(ISO),
    });
    expect(h.wallet.lastCall('transfer').request).toEqual({
      agentId: alice.agentId,
      toAgentId: bob.agentId,
      amount: '2.5',
      currency: 'CREDIT',
      idempotencyKey: key,
    });
  });

  it('should answer 409 insufficient_funds from the service', async () => {
    expectProblem(
      await h.app.inject({
        method: 'POST',
        url: wallet(bob, '/transfer'),
        headers: operator(),
        payload: { to_agent_id: alice.agentId, amount: '1000000', currency: 'CREDIT', idempotency_key: freshKey() },
      }),
      409,
      'insufficient_funds',
    );
  });

  it('should refuse unknown fields and a missing recipient with 400 validation_failed', async () => {
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/transfer'), headers: operator(), payload: { amount: '1', currency: 'CREDIT', to: 'x', idempotency_key: 'k' } }),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual(expect.arrayContaining([{ pointer: '/to', message: 'unknown field' }, { pointer: '/to_agent_id', message: 'is required' }]));
  });
});

describe('currencies (issue 13: CREDIT or ISO 4217, not any three letters)', () => {
  const routes: Array<[string, (currency: string) => Record<string, unknown>]> = [
    ['/transfer', (currency) => ({ to_agent_id: bob.agentId, amount: '1', currency, idempotency_key: freshKey() })],
    ['/holds', (currency) => ({ amount: '1', currency, idempotency_key: freshKey() })],
    ['/deposits', (currency) => ({ amount: '1', currency, method: 'sandbox', idempotency_key: freshKey() })],
    ['/withdrawals', (currency) => ({ amount: '1', currency, payout_destination_id: 'pod_9', idempotency_key: freshKey() })],
    ['/faucet', (currency) => ({ amount: '1', currency, category: 'c', idempotency_key: freshKey() })],
  ];

  it.each(routes)('POST %s should refuse QQQ, usd and XXX with 400 unsupported_currency naming /currency, before any service call', async (suffix, body) => {
    for (const currency of ['QQQ', 'usd', 'XXX', 'CREDITS']) {
      const before = h.wallet.calls.length;
      const problem = expectProblem(await h.app.inject({ method: 'POST', url: wallet(alice, suffix), headers: operator(), payload: body(currency) }), 400, 'unsupported_currency');
      expect(problem.errors).toEqual([{ pointer: '/currency', message: 'is not a supported currency: CREDIT or an ISO 4217 code such as USD' }]);
      expect(problem.detail).toBe('body/currency is not a supported currency: CREDIT or an ISO 4217 code such as USD');
      expect(h.wallet.calls.length).toBe(before);
    }
  });

  it.each(routes.filter(([suffix]) => suffix !== '/faucet'))('POST %s should pass CREDIT, USD and EUR through to wallet-ledger', async (suffix, body) => {
    for (const currency of ['CREDIT', 'USD', 'EUR']) {
      const before = h.wallet.calls.length;
      // Whatever the fake ledger then answers (e.g. insufficient_funds), the gateway let it through.
      await h.app.inject({ method: 'POST', url: wallet(alice, suffix), headers: operator(), payload: body(currency) });
      expect(h.wallet.calls.slice(before).map((c) => (c.request as { currency?: string }).currency)).toEqual([currency]);
    }
  });

  it('should keep validation_failed when a bad currency comes with another schema error', async () => {
    const problem = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/transfer'), headers: operator(), payload: { amount: '1', currency: 'QQQ', idempotency_key: freshKey() } }),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/to_agent_id', message: 'is required' },
        { pointer: '/currency', message: 'is not a supported currency: CREDIT or an ISO 4217 code such as USD' },
      ]),
    );
  });
});
