import { DomainError, errors } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import { expectProblem, operator, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The Wallets area through app.inject() against real grpc-js servers (fake identity and fake
// wallet-ledger): HTTP ⇄ gRPC mapping, idempotency keys, auth rules and error mapping.

let h: Harness;
let alice: TestAgent;
let bob: TestAgent;

beforeAll(async () => {
  h = await startHarness();
  alice = new TestAgent(uniqueAgentId('alice'));
  bob = new TestAgent(uniqueAgentId('bob'));
  await registerAgent(h.app, alice);
  await registerAgent(h.app, bob);
});

afterAll(async () => {
  await h.close();
});

const wallet = (agent: TestAgent, suffix = '') => `/v1/wallets/${agent.agentId}${suffix}`;
let keySeq = 0;
const freshKey = () => `gw-key-${Date.now()}-${keySeq++}`;

/** An agent-signed request carrying exactly the bytes it signed. */
function signed(agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown, extra: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return h.app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { payload: text }),
  });
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

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

describe('payout destinations', () => {
  it('POST /v1/wallets/{agent_id}/payout_destinations should create without an idempotency key', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/payout_destinations'), { type: 'crypto_address', details: { address: 'abc' }, label: 'cold' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      payout_destination_id: expect.stringMatching(/^pod_/),
      agent_id: alice.agentId,
      type: 'crypto_address',
      details: { address: 'abc' },
      label: 'cold',
      created_at: expect.stringMatching(ISO),
    });
    expect(h.wallet.lastCall('createPayoutDestination').request).toEqual({
      agentId: alice.agentId,
      type: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS,
      details: { address: 'abc' },
      label: 'cold',
      idempotencyKey: '',
    });
  });

  it('should map signing_key_reuse to 400 and refuse non-string details', async () => {
    h.wallet.failNext('createPayoutDestination', errors.invalidArgument('signing_key_reuse', 'a payout address may not be one of your signing keys'));
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/payout_destinations'), headers: operator(), payload: { type: 'crypto_address', details: { address: alice.publicKey }, label: 'x' } }),
      400,
      'signing_key_reuse',
    );
    expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/payout_destinations'), headers: operator(), payload: { type: 'sandbox', details: { n: 1 }, label: 'x' } }),
      400,
      'validation_failed',
    );
  });

  it('GET /v1/wallets/{agent_id}/payout_destinations should answer a page', async () => {
    const res = await signed(alice, 'GET', wallet(alice, '/payout_destinations'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [expect.objectContaining({ type: 'bank_account', details: { iban: 'DE00' } })], next_cursor: null });
  });
});

describe('withdrawals', () => {
  it('POST /v1/wallets/{agent_id}/withdrawals should create a requested withdrawal', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/withdrawals'), { amount: '25', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ withdrawal_id: expect.stringMatching(/^wdr_/), status: 'requested', payout_destination_id: 'pod_9', failure_reason: null });
  });

  it('should map identity_level_insufficient and withdrawal_limit_exceeded to 403 with their details', async () => {
    h.wallet.failNext(
      'createWithdrawal',
      errors.permissionDenied('identity_level_insufficient', 'withdrawals need MAINNET_ATTESTED', { required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' }),
    );
    const level = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/withdrawals'), headers: operator(), payload: { amount: '1', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() } }),
      403,
      'identity_level_insufficient',
    );
    expect(level).toMatchObject({ required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' });
    h.wallet.failNext(
      'createWithdrawal',
      errors.resourceExhausted('withdrawal_limit_exceeded', 'daily withdrawal limit reached', { limit: '1000', used_today: '990', resets_at: '2026-11-22T00:00:00.000Z' }),
    );
    const limit = expectProblem(
      await h.app.inject({ method: 'POST', url: wallet(alice, '/withdrawals'), headers: operator(), payload: { amount: '20', currency: 'CREDIT', payout_destination_id: 'pod_9', idempotency_key: freshKey() } }),
      403,
      'withdrawal_limit_exceeded',
    );
    expect(limit).toMatchObject({ limit: '1000', used_today: '990', resets_at: '2026-11-22T00:00:00.000Z' });
  });

  it('GET /v1/wallets/{agent_id}/withdrawals/{withdrawal_id} should answer the status with failure_reason', async () => {
    const res = await signed(alice, 'GET', wallet(alice, '/withdrawals/wdr_7'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ withdrawal_id: 'wdr_7', status: 'failed', failure_reason: 'simulated payout failure' });
    h.wallet.failNext('getWithdrawal', errors.notFound('withdrawal', 'wdr_none'));
    expectProblem(await signed(alice, 'GET', wallet(alice, '/withdrawals/wdr_none')), 404, 'withdrawal_not_found');
  });

  it('POST /v1/wallets/{agent_id}/withdrawals/{withdrawal_id}/cancel should cancel', async () => {
    const res = await signed(alice, 'POST', wallet(alice, '/withdrawals/wdr_8/cancel'), { idempotency_key: freshKey() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ withdrawal_id: 'wdr_8', status: 'cancelled' });
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

describe('GET /v1/receipts/{receipt_id}', () => {
  const receipt: walletV1.Receipt = {
    receiptId: 'rcpt_gw1',
    kind: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT,
    contractId: 'ctr_1',
    holdId: 'hld_1',
    payer: '',
    payee: '',
    amount: '25',
    fee: '0.5',
    refundedAmount: '5',
    currency: 'CREDIT',
    journalEntryIds: ['jrn_a', 'jrn_b'],
    settledAt: new Date('2026-11-21T18:00:00.123Z'),
    signature: 'c2ln',
    signerPublicKey: 'cHVi',
  };

  beforeAll(() => {
    h.wallet.receipts.set('rcpt_gw1', { ...receipt, payer: alice.agentId, payee: bob.agentId });
  });

  it('should answer the receipt to an operator, the payer and the payee, exactly in its signed JSON form', async () => {
    const expected = {
      receipt_id: 'rcpt_gw1',
      kind: 'settlement',
      contract_id: 'ctr_1',
      hold_id: 'hld_1',
      payer: alice.agentId,
      payee: bob.agentId,
      amount: '25',
      fee: '0.5',
      refunded_amount: '5',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_a', 'jrn_b'],
      settled_at: '2026-11-21T18:00:00.123Z',
      signer_public_key: 'cHVi',
      signature: 'c2ln',
    };
    const byOperator = await h.app.inject({ method: 'GET', url: '/v1/receipts/rcpt_gw1', headers: operator() });
    expect(byOperator.statusCode).toBe(200);
    expect(byOperator.json()).toEqual(expected);
    expect((await signed(alice, 'GET', '/v1/receipts/rcpt_gw1')).json()).toEqual(expected);
    expect((await signed(bob, 'GET', '/v1/receipts/rcpt_gw1')).statusCode).toBe(200);
  });

  it('should refuse any other agent with 403 forbidden and answer 404 for an unknown receipt', async () => {
    const mallory = new TestAgent(uniqueAgentId('mallory'));
    await registerAgent(h.app, mallory);
    expectProblem(await signed(mallory, 'GET', '/v1/receipts/rcpt_gw1'), 403, 'forbidden');
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/receipts/rcpt_none', headers: operator() }), 404, 'receipt_not_found');
  });
});

describe('GET /v1/ledger/check', () => {
  it('should answer the reconciliation report to an operator, with counts as numbers', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/ledger/check', headers: operator() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      accounts_checked: 4,
      entries_checked: 3,
      postings_checked: 6,
      global_sums: { CREDIT: '0' },
      discrepancies: [],
      checked_at: expect.stringMatching(ISO),
    });
  });

  it('should be operator-only', async () => {
    expectProblem(await signed(alice, 'GET', '/v1/ledger/check'), 403, 'operator_token_required');
  });
});
