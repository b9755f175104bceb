import { ExchangeApiError, ExchangeClient, idempotencyOf } from '@exchange/sdk';
import { expectProblem, http } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { newKey, nextUtcMidnight, WalletHttp, walletPath } from './wallet-http';

// The Wallets area end to end through the gateway: raw HTTP as an agent following /skill.md
// (agent-signed) or as the operator, and @exchange/sdk. Balances are read back after each step;
// every error must be problem+json with its status and code. One describe per spec endpoint
// ("<METHOD> <path>", counted by tools/spec-coverage). Idempotency storms are in
// wallet-idempotency.e2e.spec.ts; cancelling withdrawals (payout processor off) in
// wallet-withdrawal-cancel.e2e.spec.ts.

let stack: Stack;
let w: WalletHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  w = new WalletHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

const newAgent = (name: string) => w.newAgent(name);
const faucet = (agent: RawAgent, amount: string, category?: string) => w.faucet(agent, amount, category);

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
