import { ExchangeApiError, ExchangeClient, idempotencyOf } from '@exchange/sdk';
import { expectProblem, http } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { eventually, newKey, nextUtcMidnight, WalletHttp, walletPath } from './wallet-http';

// The Wallets area end to end through the gateway: raw HTTP as an agent following /skill.md
// (agent-signed) or as the operator, and @exchange/sdk. Balances are read back after each step;
// every error must be problem+json with its status and code. One describe per spec endpoint
// ("<METHOD> <path>", counted by tools/spec-coverage). Idempotency storms are in
// wallet-idempotency.e2e.spec.ts; cancelling withdrawals (payout processor off) in
// wallet-withdrawal-cancel.e2e.spec.ts.

let stack: Stack;
let w: WalletHttp;

beforeAll(async () => {
  stack = await bootStack();
  w = new WalletHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

async function newAgent(name: string): Promise<RawAgent> {
  const agent = new RawAgent(uniqueAgentId(name));
  await w.register(agent);
  return agent;
}

/** Funds a wallet through a sandbox deposit the operator confirms (no faucet cap involved). */
async function fund(agent: RawAgent, amount: string): Promise<void> {
  const deposit = await w.expectStatus(w.as(agent, 'POST', walletPath(agent, '/deposits'), { amount, currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey('fund') }), 201);
  await w.expectStatus(w.op('POST', walletPath(agent, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey('fund-confirm') }), 200);
}

async function faucet(agent: RawAgent, amount: string, category = 'e2e') {
  return w.expectStatus(w.as(agent, 'POST', walletPath(agent, '/faucet'), { amount, category, idempotency_key: newKey('faucet') }), 201);
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('GET /v1/wallets/{agent_id}', () => {
  it('shows a new wallet with 0 CREDIT, then the funds, to the owner and the operator', async () => {
    const alice = await newAgent('bal-alice');
    const empty = await w.expectStatus(w.as(alice, 'GET', walletPath(alice)), 200);
    expect(empty).toEqual({ agent_id: alice.agentId, balances: [{ currency: 'CREDIT', available: '0', held: '0', total: '0' }], as_of: expect.stringMatching(ISO) });
    await faucet(alice, '12.5');
    const byOperator = await w.expectStatus(w.op('GET', walletPath(alice)), 200);
    expect(byOperator.balances).toEqual([{ currency: 'CREDIT', available: '12.5', held: '0', total: '12.5' }]);
  });

  it('refuses another agent’s signed read (403 forbidden), no credentials (401) and an unknown agent (404)', async () => {
    const alice = await newAgent('bal-owner');
    const eve = await newAgent('bal-eve');
    expectProblem(await w.as(eve, 'GET', walletPath(alice)), 403, 'forbidden');
    expectProblem(await http(stack.baseUrl, 'GET', walletPath(alice)), 401, 'unauthenticated');
    expectProblem(await w.op('GET', walletPath(uniqueAgentId('nobody'))), 404, 'agent_not_found');
  });
});

describe('POST /v1/wallets/{agent_id}/faucet', () => {
  it('grants sandbox credits up to 200 per category and UTC day, then 403 faucet_cap_exceeded with resets_at', async () => {
    const alice = await newAgent('faucet-alice');
    const grant = await faucet(alice, '150', 'cap-test');
    expect(grant).toEqual({
      faucet_grant_id: expect.stringMatching(/^fgr_/),
      agent_id: alice.agentId,
      amount: '150',
      currency: 'CREDIT',
      category: 'cap-test',
      journal_entry_id: expect.stringMatching(/^jrn_/),
      granted_today: '150',
      remaining_today: '50',
      resets_at: expect.stringMatching(ISO),
      created_at: expect.stringMatching(ISO),
    });
    expect(await w.balance(alice)).toEqual({ available: '150', held: '0' });

    const before = new Date();
    const over = await w.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '50.000001', category: 'cap-test', idempotency_key: newKey() });
    const after = new Date();
    const problem = expectProblem(over, 403, 'faucet_cap_exceeded');
    expect([nextUtcMidnight(before), nextUtcMidnight(after)]).toContain(problem.resets_at);
    expect(problem).toMatchObject({ remaining_today: '50', category: 'cap-test' });
    // Refused whole: nothing was credited. The rest of the cap and another category still work.
    expect(await w.balance(alice)).toEqual({ available: '150', held: '0' });
    await faucet(alice, '50', 'cap-test');
    await faucet(alice, '10', 'other-category');
    expect(await w.balance(alice)).toEqual({ available: '210', held: '0' });
  });

  it('replays a retried grant once through the SDK and refuses the key with another amount (422)', async () => {
    const alice = await newAgent('faucet-sdk');
    const sdk = new ExchangeClient({ baseUrl: stack.baseUrl, operatorToken: stack.operatorToken });
    const key = newKey('sdk-faucet');
    const first = await sdk.wallets.faucet(alice.agentId, { amount: '20', category: 'sdk', idempotencyKey: key });
    const retry = await sdk.wallets.faucet(alice.agentId, { amount: '20', category: 'sdk', idempotencyKey: key });
    expect(idempotencyOf(first)).toMatchObject({ key, replayed: false, status: 201 });
    expect(idempotencyOf(retry)).toMatchObject({ key, replayed: true, status: 201 });
    expect(retry).toEqual(first);
    expect(await w.balance(alice)).toEqual({ available: '20', held: '0' });
    const reused = await sdk.wallets.faucet(alice.agentId, { amount: '21', category: 'sdk', idempotencyKey: key }).catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(ExchangeApiError);
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused', idempotencyKey: key });
  });

  it('needs an idempotency key (400); a higher identity level keeps the sandbox faucet (issue 13: capabilities are cumulative)', async () => {
    const alice = await newAgent('faucet-rules');
    expectProblem(await w.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '1', category: 'c' }), 400, 'idempotency_key_required');
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '1', category: 'c', idempotency_key: 'a' }, { 'idempotency-key': 'b' }),
      400,
      'idempotency_key_mismatch',
    );
    expectProblem(await w.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '0', category: 'c', idempotency_key: newKey() }), 400, 'invalid_amount');
    await w.expectStatus(w.op('POST', `/v1/agents/${alice.agentId}/identity_level`, { identity_level: 'MAINNET_BASIC', reason: 'e2e' }), 200);
    // Whether wallet-ledger still holds the old level (AGENT_CACHE_TTL_MS) or the new one, it grants.
    const granted = await w.as(alice, 'POST', walletPath(alice, '/faucet'), { amount: '1', category: 'c', idempotency_key: newKey() });
    expect({ status: granted.status, amount: granted.body?.amount }).toEqual({ status: 201, amount: '1' });
    expect(await w.balance(alice)).toEqual({ available: '1', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/transfer', () => {
  it('moves available funds to another agent (raw HTTP and SDK)', async () => {
    const alice = await newAgent('trf-alice');
    const bob = await newAgent('trf-bob');
    await faucet(alice, '100');
    const transfer = await w.expectStatus(
      w.as(alice, 'POST', walletPath(alice, '/transfer'), { to_agent_id: bob.agentId, amount: '30.25', currency: 'CREDIT', memo: 'invoice 1', idempotency_key: newKey() }),
      201,
    );
    expect(transfer).toEqual({
      transfer_id: expect.stringMatching(/^trf_/),
      from_agent_id: alice.agentId,
      to_agent_id: bob.agentId,
      amount: '30.25',
      currency: 'CREDIT',
      memo: 'invoice 1',
      journal_entry_id: expect.stringMatching(/^jrn_/),
      created_at: expect.stringMatching(ISO),
    });
    expect(await w.balance(alice)).toEqual({ available: '69.75', held: '0' });
    expect(await w.balance(bob)).toEqual({ available: '30.25', held: '0' });

    const bobSdk = new ExchangeClient({ baseUrl: stack.baseUrl, agent: { agentId: bob.agentId, privateKey: bob.seed } });
    const back = await bobSdk.wallets.transfer(bob.agentId, { toAgentId: alice.agentId, amount: '0.25', currency: 'CREDIT' });
    expect(back).toMatchObject({ from_agent_id: bob.agentId, amount: '0.25', memo: null });
    expect(await w.balance(alice)).toEqual({ available: '70', held: '0' });
    expect(await w.balance(bob)).toEqual({ available: '30', held: '0' });
  });

  it('answers 409 insufficient_funds, 400 self_transfer and 404 for an unknown recipient, moving nothing', async () => {
    const alice = await newAgent('trf-poor');
    const bob = await newAgent('trf-payee');
    await faucet(alice, '10');
    const poorTransfer = { to_agent_id: bob.agentId, amount: '10.000001', currency: 'CREDIT', idempotency_key: newKey() };
    const refused = await w.as(alice, 'POST', walletPath(alice, '/transfer'), poorTransfer);
    const refusal = expectProblem(refused, 409, 'insufficient_funds');
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    // The refusal is stored with the key: a retry gets it again, marked as a replay.
    const again = await w.as(alice, 'POST', walletPath(alice, '/transfer'), poorTransfer);
    expect({ ...expectProblem(again, 409, 'insufficient_funds'), request_id: '' }).toEqual({ ...refusal, request_id: '' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/transfer'), { to_agent_id: alice.agentId, amount: '1', currency: 'CREDIT', idempotency_key: newKey() }),
      400,
      'self_transfer',
    );
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/transfer'), { to_agent_id: uniqueAgentId('ghost'), amount: '1', currency: 'CREDIT', idempotency_key: newKey() }),
      404,
      'agent_not_found',
    );
    expectProblem(
      await w.as(bob, 'POST', walletPath(alice, '/transfer'), { to_agent_id: bob.agentId, amount: '1', currency: 'CREDIT', idempotency_key: newKey() }),
      403,
      'forbidden',
    );
    expect(await w.balance(alice)).toEqual({ available: '10', held: '0' });
    expect(await w.balance(bob)).toEqual({ available: '0', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/holds', () => {
  it('moves funds from available to held', async () => {
    const alice = await newAgent('hold-alice');
    await faucet(alice, '100');
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const hold = await w.expectStatus(
      w.as(alice, 'POST', walletPath(alice, '/holds'), { amount: '30', currency: 'CREDIT', expires_at: expiresAt, reference: 'ctr_e2e', idempotency_key: newKey() }),
      201,
    );
    expect(hold).toEqual({
      hold_id: expect.stringMatching(/^hld_/),
      agent_id: alice.agentId,
      amount: '30',
      currency: 'CREDIT',
      status: 'active',
      expires_at: expiresAt,
      reference: 'ctr_e2e',
      consumed_amount: null,
      released_amount: null,
      consumed_to_agent_id: null,
      journal_entry_ids: [expect.stringMatching(/^jrn_/)],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(await w.expectStatus(w.op('GET', walletPath(alice)), 200)).toMatchObject({ balances: [{ currency: 'CREDIT', available: '70', held: '30', total: '100' }] });
  });

  it('answers 409 insufficient_funds and 400 invalid_expires_at for a past expiry', async () => {
    const alice = await newAgent('hold-poor');
    await faucet(alice, '5');
    expectProblem(await w.as(alice, 'POST', walletPath(alice, '/holds'), { amount: '6', currency: 'CREDIT', idempotency_key: newKey() }), 409, 'insufficient_funds');
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/holds'), { amount: '1', currency: 'CREDIT', expires_at: '2020-01-01T00:00:00.000Z', idempotency_key: newKey() }),
      400,
      'invalid_expires_at',
    );
    expect(await w.balance(alice)).toEqual({ available: '5', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/holds/{hold_id}/consume', () => {
  it('pays part of the hold to another agent and releases the rest; a second resolution is 409', async () => {
    const buyer = await newAgent('consume-buyer');
    const seller = await newAgent('consume-seller');
    await faucet(buyer, '100');
    const hold = await w.expectStatus(w.as(buyer, 'POST', walletPath(buyer, '/holds'), { amount: '30', currency: 'CREDIT', idempotency_key: newKey() }), 201);
    const consumed = await w.expectStatus(
      w.as(buyer, 'POST', walletPath(buyer, `/holds/${hold.hold_id}/consume`), { to_agent_id: seller.agentId, amount: '20', idempotency_key: newKey() }),
      200,
    );
    expect(consumed).toMatchObject({ hold_id: hold.hold_id, status: 'consumed', consumed_amount: '20', released_amount: '10', consumed_to_agent_id: seller.agentId });
    expect(await w.balance(buyer)).toEqual({ available: '80', held: '0' });
    expect(await w.balance(seller)).toEqual({ available: '20', held: '0' });

    const attempts: Array<[string, Record<string, unknown>]> = [
      ['consume', { to_agent_id: seller.agentId, idempotency_key: newKey() }],
      ['release', { idempotency_key: newKey() }],
    ];
    for (const [action, body] of attempts) {
      const again = expectProblem(await w.as(buyer, 'POST', walletPath(buyer, `/holds/${hold.hold_id}/${action}`), body), 409, 'invalid_state');
      expect(again).toMatchObject({ current: 'consumed' });
    }
    expect(await w.balance(buyer)).toEqual({ available: '80', held: '0' });
  });

  it('refuses more than the hold (400 amount_exceeds_hold) and consumes all of it by default', async () => {
    const buyer = await newAgent('consume-all');
    const seller = await newAgent('consume-all-seller');
    await faucet(buyer, '50');
    const hold = await w.expectStatus(w.as(buyer, 'POST', walletPath(buyer, '/holds'), { amount: '40', currency: 'CREDIT', idempotency_key: newKey() }), 201);
    expectProblem(
      await w.as(buyer, 'POST', walletPath(buyer, `/holds/${hold.hold_id}/consume`), { to_agent_id: seller.agentId, amount: '40.5', idempotency_key: newKey() }),
      400,
      'amount_exceeds_hold',
    );
    const all = await w.expectStatus(w.as(buyer, 'POST', walletPath(buyer, `/holds/${hold.hold_id}/consume`), { to_agent_id: seller.agentId, idempotency_key: newKey() }), 200);
    expect(all).toMatchObject({ status: 'consumed', consumed_amount: '40' });
    expect(await w.balance(buyer)).toEqual({ available: '10', held: '0' });
    expect(await w.balance(seller)).toEqual({ available: '40', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/holds/{hold_id}/release', () => {
  it('returns the held funds (key in the Idempotency-Key header, no body); a second release is 409', async () => {
    const alice = await newAgent('release-alice');
    await faucet(alice, '25');
    const hold = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/holds'), { amount: '25', currency: 'CREDIT', idempotency_key: newKey() }), 201);
    expect(await w.balance(alice)).toEqual({ available: '0', held: '25' });
    const key = newKey('release');
    const released = await w.as(alice, 'POST', walletPath(alice, `/holds/${hold.hold_id}/release`), undefined, { 'idempotency-key': key });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ hold_id: hold.hold_id, status: 'released' });
    expect(await w.balance(alice)).toEqual({ available: '25', held: '0' });
    // The same key again is a replay, not a second release.
    const replay = await w.as(alice, 'POST', walletPath(alice, `/holds/${hold.hold_id}/release`), undefined, { 'idempotency-key': key });
    expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), body: replay.body }).toEqual({ status: 200, replayed: 'true', body: released.body });
    const again = expectProblem(await w.as(alice, 'POST', walletPath(alice, `/holds/${hold.hold_id}/release`), { idempotency_key: newKey() }), 409, 'invalid_state');
    expect(again).toMatchObject({ current: 'released' });
    expectProblem(await w.as(alice, 'POST', walletPath(alice, '/holds/hld_00000000-0000-7000-8000-000000000000/release'), { idempotency_key: newKey() }), 404, 'hold_not_found');
    expect(await w.balance(alice)).toEqual({ available: '25', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/deposits', () => {
  it('records a pending deposit without crediting the wallet', async () => {
    const alice = await newAgent('dep-alice');
    const deposit = await w.expectStatus(
      w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '100', currency: 'CREDIT', method: 'bank', reference: 'wire-1', idempotency_key: newKey() }),
      201,
    );
    expect(deposit).toEqual({
      deposit_id: expect.stringMatching(/^dep_/),
      agent_id: alice.agentId,
      amount: '100',
      currency: 'CREDIT',
      method: 'bank',
      reference: 'wire-1',
      status: 'pending',
      journal_entry_id: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(await w.balance(alice)).toEqual({ available: '0', held: '0' });
  });

  it('refuses an unknown method (400 validation_failed) and an unsupported currency (400)', async () => {
    const alice = await newAgent('dep-bad');
    const bad = expectProblem(await w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '1', currency: 'CREDIT', method: 'cash', idempotency_key: newKey() }), 400, 'validation_failed');
    expect(bad.errors).toEqual([{ pointer: '/method', message: expect.stringContaining('sandbox') }]);
    expectProblem(await w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '1', currency: 'credits', method: 'sandbox', idempotency_key: newKey() }), 400, 'unsupported_currency');
  });
});

describe('GET /v1/wallets/{agent_id}/deposits', () => {
  it('lists deposits newest first, filters by status and pages with next_cursor', async () => {
    const alice = await newAgent('deps-list');
    const ids: string[] = [];
    for (const amount of ['1', '2', '3']) {
      ids.push((await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount, currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }), 201)).deposit_id);
    }
    await w.expectStatus(w.op('POST', walletPath(alice, `/deposits/${ids[0]}/confirm`), { idempotency_key: newKey() }), 200);
    const all = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/deposits')), 200);
    expect(all.data.map((d: { deposit_id: string }) => d.deposit_id)).toEqual([...ids].reverse());
    expect(all.next_cursor).toBeNull();
    const pending = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/deposits?status=pending')), 200);
    expect(pending.data.map((d: { deposit_id: string }) => d.deposit_id)).toEqual([ids[2], ids[1]]);
    const first = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/deposits?limit=2')), 200);
    expect(first.data).toHaveLength(2);
    const second = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, `/deposits?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)), 200);
    expect(second.data.map((d: { deposit_id: string }) => d.deposit_id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
  });

  it('refuses another agent (403) and a bad limit (400)', async () => {
    const alice = await newAgent('deps-owner');
    const eve = await newAgent('deps-eve');
    expectProblem(await w.as(eve, 'GET', walletPath(alice, '/deposits')), 403, 'forbidden');
    expectProblem(await w.as(alice, 'GET', walletPath(alice, '/deposits?limit=201')), 400, 'validation_failed');
  });
});

describe('POST /v1/wallets/{agent_id}/deposits/{deposit_id}/confirm', () => {
  it('lets the operator confirm a pending deposit, which credits the wallet once', async () => {
    const alice = await newAgent('confirm-alice');
    const deposit = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '75.5', currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }), 201);
    const confirmed = await w.expectStatus(w.op('POST', walletPath(alice, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 200);
    expect(confirmed).toMatchObject({ deposit_id: deposit.deposit_id, status: 'confirmed', journal_entry_id: expect.stringMatching(/^jrn_/) });
    expect(await w.balance(alice)).toEqual({ available: '75.5', held: '0' });
    const again = expectProblem(await w.op('POST', walletPath(alice, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 409, 'invalid_state');
    expect(again).toMatchObject({ current: 'confirmed' });
    expect(await w.balance(alice)).toEqual({ available: '75.5', held: '0' });
  });

  it('refuses the agent itself: confirming is for operators (403 operator_token_required)', async () => {
    const alice = await newAgent('confirm-self');
    const deposit = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '10', currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }), 201);
    expectProblem(await w.as(alice, 'POST', walletPath(alice, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 403, 'operator_token_required');
    expectProblem(await w.op('POST', walletPath(alice, '/deposits/dep_00000000-0000-7000-8000-000000000000/confirm'), { idempotency_key: newKey() }), 404, 'deposit_not_found');
    expect(await w.balance(alice)).toEqual({ available: '0', held: '0' });
  });
});

describe('POST /v1/wallets/{agent_id}/deposits/{deposit_id}/expire', () => {
  it('lets the operator expire a pending deposit, which credits nothing; a confirmed one cannot expire', async () => {
    const alice = await newAgent('expire-alice');
    const deposit = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '9', currency: 'CREDIT', method: 'crypto', idempotency_key: newKey() }), 201);
    const expired = await w.expectStatus(w.op('POST', walletPath(alice, `/deposits/${deposit.deposit_id}/expire`), undefined, { 'idempotency-key': newKey() }), 200);
    expect(expired).toMatchObject({ deposit_id: deposit.deposit_id, status: 'expired', journal_entry_id: null });
    expectProblem(await w.op('POST', walletPath(alice, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 409, 'invalid_state');
    expect(await w.balance(alice)).toEqual({ available: '0', held: '0' });
  });

  it('refuses the agent itself (403 operator_token_required)', async () => {
    const alice = await newAgent('expire-self');
    const deposit = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/deposits'), { amount: '9', currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }), 201);
    expectProblem(await w.as(alice, 'POST', walletPath(alice, `/deposits/${deposit.deposit_id}/expire`), { idempotency_key: newKey() }), 403, 'operator_token_required');
    const list = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/deposits')), 200);
    expect(list.data[0]).toMatchObject({ deposit_id: deposit.deposit_id, status: 'pending' });
  });
});

describe('POST /v1/wallets/{agent_id}/payout_destinations', () => {
  it('creates a destination (the idempotency key is optional here)', async () => {
    const alice = await newAgent('pod-alice');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'bank_account', details: { iban: 'DE89370400440532013000' }, label: 'main' }), 201);
    expect(pod).toEqual({
      payout_destination_id: expect.stringMatching(/^pod_/),
      agent_id: alice.agentId,
      type: 'bank_account',
      details: { iban: 'DE89370400440532013000' },
      label: 'main',
      created_at: expect.stringMatching(ISO),
    });
  });

  it('refuses a crypto address that is one of the agent’s signing keys (400 signing_key_reuse), in base64 or hex', async () => {
    const alice = await newAgent('pod-reuse');
    const hex = Buffer.from(alice.publicKey, 'base64').toString('hex');
    for (const address of [alice.publicKey, hex]) {
      expectProblem(
        await w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'crypto_address', details: { address }, label: 'oops' }),
        400,
        'signing_key_reuse',
      );
    }
    const list = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/payout_destinations')), 200);
    expect(list.data).toEqual([]);
  });
});

describe('GET /v1/wallets/{agent_id}/payout_destinations', () => {
  it('lists the agent’s destinations newest first', async () => {
    const alice = await newAgent('pods-list');
    const a = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'a' }), 201);
    const b = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'crypto_address', details: { address: '0xabc' }, label: 'b' }), 201);
    const list = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, '/payout_destinations')), 200);
    expect(list).toEqual({ data: [b, a], next_cursor: null });
  });

  it('refuses another agent (403 forbidden)', async () => {
    const alice = await newAgent('pods-owner');
    const eve = await newAgent('pods-eve');
    expectProblem(await w.as(eve, 'GET', walletPath(alice, '/payout_destinations')), 403, 'forbidden');
  });
});

/** An agent with `amount` CREDIT, raised to MAINNET_ATTESTED by the operator through the identity API. */
async function attestedAgent(name: string, amount: string): Promise<RawAgent> {
  const agent = await newAgent(name);
  await fund(agent, amount);
  for (const level of ['MAINNET_BASIC', 'MAINNET_ATTESTED']) {
    await w.expectStatus(w.op('POST', `/v1/agents/${agent.agentId}/identity_level`, { identity_level: level, reason: 'e2e KYC' }), 200);
  }
  return agent;
}

/**
 * Creates a withdrawal, retrying (with a fresh key each time) while wallet-ledger still has the
 * agent's previous level cached (AGENT_CACHE_TTL_MS): a refusal is stored with its key.
 */
async function createWithdrawal(agent: RawAgent, body: Record<string, unknown>) {
  const res = await eventually(
    () => w.as(agent, 'POST', walletPath(agent, '/withdrawals'), { ...body, idempotency_key: newKey('wdr') }),
    (r) => !(r.status === 403 && r.body?.code === 'identity_level_insufficient'),
    40,
  );
  return w.expectStatus(res, 201);
}

describe('POST /v1/wallets/{agent_id}/withdrawals', () => {
  it('needs MAINNET_ATTESTED: 403 identity_level_insufficient for a sandbox agent', async () => {
    const alice = await newAgent('wdr-sandbox');
    await faucet(alice, '50');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
    const problem = expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/withdrawals'), { amount: '10', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id, idempotency_key: newKey() }),
      403,
      'identity_level_insufficient',
    );
    expect(problem).toMatchObject({ required: 'MAINNET_ATTESTED', current: 'SANDBOX_UNVERIFIED' });
    expect(await w.balance(alice)).toEqual({ available: '50', held: '0' });
  });

  it('after the operator raises the level: requested (funds held) → processing → completed', async () => {
    const alice = await attestedAgent('wdr-ok', '300');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: { account: 'e2e' }, label: 'p' }), 201);
    const created = await createWithdrawal(alice, { amount: '120', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id });
    expect(created).toMatchObject({ withdrawal_id: expect.stringMatching(/^wdr_/), status: 'requested', amount: '120', failure_reason: null });
    const during = await w.balance(alice);
    expect(during.available).toBe('180');
    expect(['120', '0']).toContain(during.held); // held until the payout processor completes it
    const done = await eventually(
      () => w.expectStatus(w.as(alice, 'GET', walletPath(alice, `/withdrawals/${created.withdrawal_id}`)), 200),
      (wd) => wd.status === 'completed' || wd.status === 'failed',
    );
    expect(done).toMatchObject({ status: 'completed', failure_reason: null });
    expect(await w.balance(alice)).toEqual({ available: '180', held: '0' });
  });

  it('fails and refunds a withdrawal to a destination the sandbox rail rejects', async () => {
    const alice = await attestedAgent('wdr-fail', '100');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: { simulate: 'fail' }, label: 'bad' }), 201);
    const created = await createWithdrawal(alice, { amount: '40', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id });
    const done = await eventually(
      () => w.expectStatus(w.op('GET', walletPath(alice, `/withdrawals/${created.withdrawal_id}`)), 200),
      (wd) => wd.status === 'completed' || wd.status === 'failed',
    );
    expect(done).toMatchObject({ status: 'failed', failure_reason: expect.any(String) });
    expect(await w.balance(alice)).toEqual({ available: '100', held: '0' });
  });

  it('enforces the MAINNET_ATTESTED daily limit of 1000 (403 withdrawal_limit_exceeded with limit and resets_at)', async () => {
    const alice = await attestedAgent('wdr-limit', '1500');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
    await createWithdrawal(alice, { amount: '900', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id });
    const before = new Date();
    const problem = expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/withdrawals'), { amount: '100.000001', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id, idempotency_key: newKey() }),
      403,
      'withdrawal_limit_exceeded',
    );
    expect(problem).toMatchObject({ limit: '1000', used_today: '900' });
    expect([nextUtcMidnight(before), nextUtcMidnight(new Date())]).toContain(problem.resets_at);
    expect((await w.balance(alice)).available).toBe('600');
  });

  it('answers 404 for an unknown payout destination and 409 insufficient_funds', async () => {
    const alice = await attestedAgent('wdr-errors', '10');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
    // Wait until wallet-ledger sees the new level, so the next refusals are the ones under test.
    const small = await createWithdrawal(alice, { amount: '1', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id });
    expect(small.status).toBe('requested');
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/withdrawals'), { amount: '1', currency: 'CREDIT', payout_destination_id: 'pod_00000000-0000-7000-8000-000000000000', idempotency_key: newKey() }),
      404,
      'payout_destination_not_found',
    );
    expectProblem(
      await w.as(alice, 'POST', walletPath(alice, '/withdrawals'), { amount: '9.5', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id, idempotency_key: newKey() }),
      409,
      'insufficient_funds',
    );
  });
});

describe('GET /v1/wallets/{agent_id}/withdrawals/{withdrawal_id}', () => {
  it('shows the withdrawal to its owner and the operator only', async () => {
    const alice = await attestedAgent('wdr-read', '20');
    const eve = await newAgent('wdr-eve');
    const pod = await w.expectStatus(w.as(alice, 'POST', walletPath(alice, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
    const created = await createWithdrawal(alice, { amount: '5', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id });
    const read = await w.expectStatus(w.as(alice, 'GET', walletPath(alice, `/withdrawals/${created.withdrawal_id}`)), 200);
    expect(read).toMatchObject({ withdrawal_id: created.withdrawal_id, agent_id: alice.agentId, amount: '5', payout_destination_id: pod.payout_destination_id });
    expect(['requested', 'processing', 'completed']).toContain(read.status);
    expectProblem(await w.as(eve, 'GET', walletPath(alice, `/withdrawals/${created.withdrawal_id}`)), 403, 'forbidden');
    expectProblem(await w.op('GET', walletPath(alice, '/withdrawals/wdr_00000000-0000-7000-8000-000000000000')), 404, 'withdrawal_not_found');
  });
});

describe('frozen agents', () => {
  it('refuse every wallet mutation with 403 agent_frozen while reads still work', async () => {
    const alice = await newAgent('frozen-alice');
    const bob = await newAgent('frozen-bob');
    await faucet(alice, '40');
    await w.expectStatus(w.op('POST', `/v1/agents/${alice.agentId}/freeze`, { reason: 'e2e review' }), 200);
    const attempts: Array<[string, unknown]> = [
      ['/faucet', { amount: '1', category: 'f', idempotency_key: newKey() }],
      ['/transfer', { to_agent_id: bob.agentId, amount: '1', currency: 'CREDIT', idempotency_key: newKey() }],
      ['/holds', { amount: '1', currency: 'CREDIT', idempotency_key: newKey() }],
      ['/deposits', { amount: '1', currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }],
    ];
    for (const [suffix, body] of attempts) {
      expectProblem(await w.as(alice, 'POST', walletPath(alice, suffix), body), 403, 'agent_frozen');
      // The operator acting for the agent is refused the same way.
      expectProblem(await w.op('POST', walletPath(alice, suffix), { ...(body as object), idempotency_key: newKey() }, { 'x-agent-id': alice.agentId }), 403, 'agent_frozen');
    }
    expect(await w.expectStatus(w.as(alice, 'GET', walletPath(alice)), 200)).toMatchObject({ balances: [{ currency: 'CREDIT', available: '40', held: '0' }] });
    await w.expectStatus(w.op('POST', `/v1/agents/${alice.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    await faucet(alice, '1');
    expect(await w.balance(alice)).toEqual({ available: '41', held: '0' });
  });
});

describe('GET /v1/ledger/check', () => {
  it('reports consistent books after everything above (operator only)', async () => {
    const report = await w.expectStatus(w.op('GET', '/v1/ledger/check'), 200);
    expect(report).toMatchObject({ ok: true, discrepancies: [], global_sums: expect.objectContaining({ CREDIT: '0' }) });
    expect(report.accounts_checked).toBeGreaterThan(0);
    const agent = await newAgent('ledger-check');
    expectProblem(await w.as(agent, 'GET', '/v1/ledger/check'), 403, 'operator_token_required');
  });
});
