import { bootStack, type Stack } from './stack';
import { expectProblem, http, type HttpResult } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';

// Retry storms through the gateway: for every balance-mutating wallet route, 100 identical
// requests with one idempotency key fired at once must take effect exactly once. Each answer is
// the stored one (same status and body, `Idempotent-Replayed: true` on replays) or 409
// idempotency_in_progress; a later replay is identical; the same key with another payload is 422
// idempotency_key_reused; no key at all is 400 idempotency_key_required.
// (Test titles name the operation, not "<METHOD> <path>": the per-endpoint describes that
// tools/spec-coverage counts live in wallets.e2e.spec.ts.)
const STORM = 100;

let stack: Stack;
let url: string;
let token: string;
const payer = new RawAgent(uniqueAgentId('storm-payer'));
const payee = new RawAgent(uniqueAgentId('storm-payee'));
const withdrawer = new RawAgent(uniqueAgentId('storm-withdrawer'));
let destinationId: string;

const wallet = (agent: RawAgent, rest = '') => `/v1/wallets/${agent.agentId}${rest}`;

async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  return http(url, method, path, { token, body, headers });
}

async function ok(method: string, path: string, body: unknown, status: number) {
  const res = await call(method, path, body);
  if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.body;
}

async function balance(agent: RawAgent): Promise<{ available: string; held: string }> {
  const snapshot = await ok('GET', wallet(agent), undefined, 200);
  const row = snapshot.balances.find((b: { currency: string }) => b.currency === 'CREDIT');
  return row ? { available: row.available, held: row.held } : { available: '0', held: '0' };
}

const isInProgress = (r: HttpResult) => r.status === 409 && r.body?.code === 'idempotency_in_progress';
const replayed = (r: HttpResult) => r.headers.get('idempotent-replayed') === 'true';

/**
 * Fires STORM identical requests at once (even ones carry the key in the body, odd ones in the
 * Idempotency-Key header: the same key either way).
 */
function fire(path: string, body: Record<string, unknown>): Promise<HttpResult[]> {
  const { idempotency_key: key, ...rest } = body;
  return Promise.all(
    Array.from({ length: STORM }, (_, i) => (i % 2 === 0 ? call('POST', path, body) : call('POST', path, rest, { 'idempotency-key': String(key) }))),
  );
}

/** Exactly one original answer; every other is the same stored answer or 409 in progress. */
function expectOneEffect(responses: HttpResult[], expectedStatus: number): HttpResult {
  const inProgress = responses.filter(isInProgress);
  for (const r of inProgress) expectProblem(r, 409, 'idempotency_in_progress');
  const answered = responses.filter((r) => !isInProgress(r));
  const originals = answered.filter((r) => !replayed(r));
  if (originals.length !== 1) {
    throw new Error(`expected exactly one original answer, got ${originals.length}: ${originals.slice(0, 3).map((r) => `${r.status} ${r.text}`).join(' | ')}`);
  }
  const original = originals[0];
  expect(original.status).toBe(expectedStatus);
  for (const r of answered) {
    expect(r.status).toBe(original.status);
    expect(r.body).toEqual(original.body);
  }
  expect(inProgress.length + answered.length).toBe(STORM);
  return original;
}

async function storm(path: string, body: Record<string, unknown>, expectedStatus: number): Promise<HttpResult> {
  return expectOneEffect(await fire(path, body), expectedStatus);
}

/** Later, once more: the very same stored answer, marked as a replay. */
async function expectReplay(path: string, body: Record<string, unknown>, original: HttpResult) {
  const again = await call('POST', path, body);
  expect({ status: again.status, replayed: replayed(again), body: again.body }).toEqual({ status: original.status, replayed: true, body: original.body });
}

async function expectKeyRequired(path: string, body: Record<string, unknown>) {
  const { idempotency_key: _key, ...withoutKey } = body;
  const problem = expectProblem(await call('POST', path, withoutKey), 400, 'idempotency_key_required');
  expect(problem.errors).toEqual([expect.objectContaining({ pointer: '/idempotency_key' })]);
}

beforeAll(async () => {
  // The payout processor is off: withdrawals stay `requested`, so the cancel storm meets a
  // cancellable withdrawal every time (its races with the processor are in wallet-ledger's load suite).
  stack = await bootStack({ env: { PAYOUT_PROCESSOR_INTERVAL_MS: '0' } });
  url = stack.baseUrl;
  token = stack.operatorToken;
  for (const agent of [payer, payee, withdrawer]) await ok('POST', '/v1/agents', agent.registrationBody(), 201);
  // Withdrawals need MAINNET_ATTESTED; wallet-ledger sees the level before its first call for this agent.
  for (const level of ['MAINNET_BASIC', 'MAINNET_ATTESTED']) {
    await ok('POST', `/v1/agents/${withdrawer.agentId}/identity_level`, { identity_level: level, reason: 'storm test' }, 200);
  }
  const funding = await ok('POST', wallet(withdrawer, '/deposits'), { amount: '100', currency: 'CREDIT', method: 'sandbox', idempotency_key: 'w-funding' }, 201);
  await ok('POST', wallet(withdrawer, `/deposits/${funding.deposit_id}/confirm`), { idempotency_key: 'w-funding-confirm' }, 200);
  const destination = await ok('POST', wallet(withdrawer, '/payout_destinations'), { type: 'sandbox', details: { account: 'storm' }, label: 'storm' }, 201);
  destinationId = destination.payout_destination_id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('wallet idempotency under a retry storm of 100 identical requests', () => {
  it('faucet: one grant', async () => {
    const path = wallet(payer, '/faucet');
    const body = { amount: '50', currency: 'CREDIT', category: 'storm', idempotency_key: 'faucet-1' };
    const original = await storm(path, body, 201);
    expect(original.body).toMatchObject({ amount: '50', granted_today: '50', remaining_today: '150' });
    expect(await balance(payer)).toEqual({ available: '50', held: '0' });
    await expectReplay(path, body, original);
    expectProblem(await call('POST', path, { ...body, amount: '51' }), 422, 'idempotency_key_reused');
    await expectKeyRequired(path, body);
    expect(await balance(payer)).toEqual({ available: '50', held: '0' });
  });

  it('transfer: one transfer', async () => {
    const path = wallet(payer, '/transfer');
    const body = { to_agent_id: payee.agentId, amount: '10', currency: 'CREDIT', memo: 'storm', idempotency_key: 'transfer-1' };
    const original = await storm(path, body, 201);
    expect(original.body).toMatchObject({ from_agent_id: payer.agentId, to_agent_id: payee.agentId, amount: '10' });
    expect(await balance(payer)).toEqual({ available: '40', held: '0' });
    expect(await balance(payee)).toEqual({ available: '10', held: '0' });
    await expectReplay(path, body, original);
    expectProblem(await call('POST', path, { ...body, memo: 'another memo' }), 422, 'idempotency_key_reused');
    await expectKeyRequired(path, body);
    expect(await balance(payee)).toEqual({ available: '10', held: '0' });
  });

  it('hold create: one hold', async () => {
    const path = wallet(payer, '/holds');
    const body = { amount: '5', currency: 'CREDIT', reference: 'storm', idempotency_key: 'hold-1' };
    const original = await storm(path, body, 201);
    expect(original.body).toMatchObject({ status: 'active', amount: '5' });
    expect(await balance(payer)).toEqual({ available: '35', held: '5' });
    await expectReplay(path, body, original);
    expectProblem(await call('POST', path, { ...body, amount: '6' }), 422, 'idempotency_key_reused');
    await expectKeyRequired(path, body);
    expect(await balance(payer)).toEqual({ available: '35', held: '5' });
  });

  it('hold release: released once', async () => {
    const hold = await ok('POST', wallet(payer, '/holds'), { amount: '4', currency: 'CREDIT', idempotency_key: 'hold-2' }, 201);
    const other = await ok('POST', wallet(payer, '/holds'), { amount: '3', currency: 'CREDIT', idempotency_key: 'hold-3' }, 201);
    expect(await balance(payer)).toEqual({ available: '28', held: '12' });
    const path = wallet(payer, `/holds/${hold.hold_id}/release`);
    const body = { idempotency_key: 'release-1' };
    const original = await storm(path, body, 200);
    expect(original.body).toMatchObject({ hold_id: hold.hold_id, status: 'released', released_amount: '4' });
    expect(await balance(payer)).toEqual({ available: '32', held: '8' });
    await expectReplay(path, body, original);
    // The same key on another hold is another payload: refused, and that hold stays active.
    expectProblem(await call('POST', wallet(payer, `/holds/${other.hold_id}/release`), body), 422, 'idempotency_key_reused');
    await expectKeyRequired(path, body);
    expect(await balance(payer)).toEqual({ available: '32', held: '8' });
  });

  it('hold consume: consumed once', async () => {
    const hold = await ok('POST', wallet(payer, '/holds'), { amount: '6', currency: 'CREDIT', idempotency_key: 'hold-4' }, 201);
    expect(await balance(payer)).toEqual({ available: '26', held: '14' });
    const path = wallet(payer, `/holds/${hold.hold_id}/consume`);
    const body = { to_agent_id: payee.agentId, amount: '4', idempotency_key: 'consume-1' };
    const original = await storm(path, body, 200);
    expect(original.body).toMatchObject({ status: 'consumed', consumed_amount: '4', released_amount: '2', consumed_to_agent_id: payee.agentId });
    expect(await balance(payer)).toEqual({ available: '28', held: '8' });
    expect(await balance(payee)).toEqual({ available: '14', held: '0' });
    await expectReplay(path, body, original);
    expectProblem(await call('POST', path, { ...body, amount: '3' }), 422, 'idempotency_key_reused');
    await expectKeyRequired(path, body);
    expect(await balance(payee)).toEqual({ available: '14', held: '0' });
  });

  describe('deposits', () => {
    const reference = `storm-${Date.now()}`;
    let depositId: string;

    async function depositsWithReference(ref: string) {
      const page = await ok('GET', `${wallet(payee, '/deposits')}?limit=200`, undefined, 200);
      return page.data.filter((d: { reference: string | null }) => d.reference === ref);
    }

    it('deposit create: one deposit', async () => {
      const path = wallet(payee, '/deposits');
      const body = { amount: '20', currency: 'CREDIT', method: 'sandbox', reference, idempotency_key: 'deposit-1' };
      const original = await storm(path, body, 201);
      expect(original.body).toMatchObject({ status: 'pending', amount: '20', reference });
      depositId = original.body.deposit_id;
      expect((await depositsWithReference(reference)).map((d: { deposit_id: string }) => d.deposit_id)).toEqual([depositId]);
      await expectReplay(path, body, original);
      expectProblem(await call('POST', path, { ...body, amount: '21' }), 422, 'idempotency_key_reused');
      await expectKeyRequired(path, body);
      expect(await depositsWithReference(reference)).toHaveLength(1);
    });

    it('deposit confirm: credited once', async () => {
      const other = await ok('POST', wallet(payee, '/deposits'), { amount: '1', currency: 'CREDIT', method: 'bank', reference: `${reference}-o`, idempotency_key: 'deposit-2' }, 201);
      const path = wallet(payee, `/deposits/${depositId}/confirm`);
      const body = { idempotency_key: 'confirm-1' };
      const original = await storm(path, body, 200);
      expect(original.body).toMatchObject({ deposit_id: depositId, status: 'confirmed' });
      expect(await balance(payee)).toEqual({ available: '34', held: '0' });
      await expectReplay(path, body, original);
      expectProblem(await call('POST', wallet(payee, `/deposits/${other.deposit_id}/confirm`), body), 422, 'idempotency_key_reused');
      await expectKeyRequired(path, body);
      expect((await depositsWithReference(`${reference}-o`))[0].status).toBe('pending');
      expect(await balance(payee)).toEqual({ available: '34', held: '0' });
    });

    it('deposit expire: expired once, nothing credited', async () => {
      const pending = await ok('POST', wallet(payee, '/deposits'), { amount: '9', currency: 'CREDIT', method: 'crypto', reference: `${reference}-x`, idempotency_key: 'deposit-3' }, 201);
      const other = await depositsWithReference(`${reference}-o`);
      const path = wallet(payee, `/deposits/${pending.deposit_id}/expire`);
      const body = { idempotency_key: 'expire-1' };
      const original = await storm(path, body, 200);
      expect(original.body).toMatchObject({ deposit_id: pending.deposit_id, status: 'expired' });
      await expectReplay(path, body, original);
      expectProblem(await call('POST', wallet(payee, `/deposits/${other[0].deposit_id}/expire`), body), 422, 'idempotency_key_reused');
      await expectKeyRequired(path, body);
      expect((await depositsWithReference(`${reference}-o`))[0].status).toBe('pending');
      expect(await balance(payee)).toEqual({ available: '34', held: '0' });
    });
  });

  describe('withdrawals', () => {
    let firstWithdrawalId: string;

    it('withdrawal create: one withdrawal', async () => {
      const path = wallet(withdrawer, '/withdrawals');
      const body = { amount: '7', currency: 'CREDIT', payout_destination_id: destinationId, idempotency_key: 'withdrawal-1' };
      const original = await storm(path, body, 201);
      expect(original.body).toMatchObject({ status: 'requested', amount: '7', payout_destination_id: destinationId });
      firstWithdrawalId = original.body.withdrawal_id;
      expect(await balance(withdrawer)).toEqual({ available: '93', held: '7' });
      await expectReplay(path, body, original);
      expectProblem(await call('POST', path, { ...body, amount: '8' }), 422, 'idempotency_key_reused');
      await expectKeyRequired(path, body);
      expect(await balance(withdrawer)).toEqual({ available: '93', held: '7' });
    });

    it('withdrawal cancel: cancelled and refunded once', async () => {
      const created = await ok('POST', wallet(withdrawer, '/withdrawals'), { amount: '2', currency: 'CREDIT', payout_destination_id: destinationId, idempotency_key: 'withdrawal-2' }, 201);
      expect(await balance(withdrawer)).toEqual({ available: '91', held: '9' });
      const path = wallet(withdrawer, `/withdrawals/${created.withdrawal_id}/cancel`);
      const body = { idempotency_key: 'cancel-1' };
      const original = await storm(path, body, 200);
      expect(original.body).toMatchObject({ withdrawal_id: created.withdrawal_id, status: 'cancelled', amount: '2' });
      expect(await balance(withdrawer)).toEqual({ available: '93', held: '7' });
      await expectReplay(path, body, original);
      // The same key on the other (still requested) withdrawal: refused, and it stays requested.
      expectProblem(await call('POST', wallet(withdrawer, `/withdrawals/${firstWithdrawalId}/cancel`), body), 422, 'idempotency_key_reused');
      await expectKeyRequired(path, body);
      expect((await ok('GET', wallet(withdrawer, `/withdrawals/${firstWithdrawalId}`), undefined, 200)).status).toBe('requested');
      expect(await balance(withdrawer)).toEqual({ available: '93', held: '7' });
    });
  });

  it('leaves the ledger consistent', async () => {
    expect(await ok('GET', '/v1/ledger/check', undefined, 200)).toMatchObject({ ok: true, discrepancies: [] });
  });
});
