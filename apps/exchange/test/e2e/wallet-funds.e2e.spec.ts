import { expectProblem } from './http';
import { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { eventually, newKey, nextUtcMidnight, WalletHttp, walletPath } from './wallet-http';

// The Wallets area's deposits, payout destinations, withdrawals, frozen agents and the ledger
// check end to end through the gateway (balances, faucet, transfers and holds: wallets.e2e.spec.ts),
// as an agent signing per /skill.md or as the operator. Every error must be problem+json with its
// status and code. One describe per spec endpoint ("<METHOD> <path>", counted by tools/spec-coverage).

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
const attestedAgent = (name: string, amount: string) => w.attestedAgent(name, amount);
const createWithdrawal = (agent: RawAgent, body: Record<string, unknown>) => w.createWithdrawal(agent, body);

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

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
