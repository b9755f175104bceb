import { ISO, MarketHttp, expectProblem, newKey, walletPath } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Market integrity through the gateway (apps/market/README.md "Market integrity"): the state
// machine, the kill switches, the audit log and the erroneous clear, then a matrix showing each
// state and switch blocks exactly its actions and nothing else. The stack is shared by the file:
// every test leaves the market normal with every switch off.

let stack: Stack;
let m: MarketHttp;

beforeAll(async () => {
  stack = await bootStack();
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

const SWITCHES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];

const getState = () => m.op('GET', '/v1/market-integrity/state');
const setState = (state: string, reason = 'e2e', headers: Record<string, string> = {}) =>
  m.op('POST', '/v1/market-integrity/state', { state, reason }, headers);
const setSwitch = (name: string, enabled: boolean, reason = 'e2e') => m.op('POST', '/v1/market-integrity/kill-switches', { name, enabled, reason });
const clear = (contract_id: string, reason = 'cleared in error') => m.op('POST', '/v1/market-integrity/erroneous-clear', { contract_id, reason });

async function restoreNormal(): Promise<void> {
  const s = await m.expectStatus(getState(), 200);
  for (const k of s.kill_switches) if (k.enabled) await m.expectStatus(setSwitch(k.name, false, 'e2e cleanup'), 200);
  if (s.state !== 'normal') await m.expectStatus(setState('normal', 'e2e cleanup'), 200);
}

afterEach(restoreNormal);

async function climbTo(state: 'elevated' | 'restricted' | 'halted'): Promise<void> {
  for (const s of ['elevated', 'restricted', 'halted']) {
    await m.expectStatus(setState(s), 200);
    if (s === state) return;
  }
}

describe('GET /v1/market-integrity/state', () => {
  it('answers an agent and the operator: the state and all six switches in order', async () => {
    const agent = await m.newAgent('int-reader');
    const res = await m.as(agent, 'GET', '/v1/market-integrity/state');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'normal', since: expect.stringMatching(ISO), wallet_controls_synced: true });
    expect(res.body.kill_switches.map((k: { name: string; enabled: boolean }) => [k.name, k.enabled])).toEqual(SWITCHES.map((n) => [n, false]));
    expect((await getState()).body).toEqual(res.body);
  });

  it('needs credentials (401)', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/market-integrity/state`);
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/market-integrity/state', () => {
  it('moves up, down any number, with reason and operator', async () => {
    const up = await m.expectStatus(setState('elevated', 'unusual volume'), 200);
    expect(up).toMatchObject({ state: 'elevated', reason: 'unusual volume', set_by: expect.stringMatching(/^operator:/), since: expect.stringMatching(ISO), wallet_controls_synced: true });
    await m.expectStatus(setState('restricted'), 200);
    const down = await m.expectStatus(setState('normal', 'all clear'), 200);
    expect(down).toMatchObject({ state: 'normal', reason: 'all clear' });
  });

  // A skipped step up is allowed since issue 13 (emergency halt in one call: market-conformance.e2e.spec.ts).
  it('refuses the same state (409 invalid_state), agents (403), bad bodies (400)', async () => {
    const same = expectProblem(await setState('normal'), 409, 'invalid_state');
    expect(same).toMatchObject({ current: 'normal', wanted: 'normal' });
    const agent = await m.newAgent('int-agent');
    expectProblem(await m.as(agent, 'POST', '/v1/market-integrity/state', { state: 'elevated', reason: 'r' }), 403, 'operator_token_required');
    expectProblem(await m.op('POST', '/v1/market-integrity/state', { state: 'elevated' }), 400, 'validation_failed');
    expectProblem(await m.op('POST', '/v1/market-integrity/state', { state: 'panic', reason: 'r' }), 400, 'validation_failed');
    expectProblem(await m.op('POST', '/v1/market-integrity/state', { state: 'elevated', reason: 'r', extra: 1 }), 400, 'validation_failed');
    expectProblem(await setState('elevated', 'x'.repeat(501)), 400, 'validation_failed');
    expect((await m.expectStatus(getState(), 200)).state).toBe('normal');
  });

  it('replays the same Idempotency-Key', async () => {
    const key = newKey('int');
    const first = await setState('elevated', 'once', { 'idempotency-key': key });
    const again = await setState('elevated', 'once', { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('POST /v1/market-integrity/kill-switches', () => {
  it('switches one on and off, and pushes it to wallet-ledger', async () => {
    const on = await m.expectStatus(setSwitch('faucet', true, 'faucet abuse'), 200);
    expect(on.kill_switches.find((k: { name: string }) => k.name === 'faucet')).toMatchObject({
      enabled: true,
      reason: 'faucet abuse',
      set_by: expect.stringMatching(/^operator:/),
      updated_at: expect.stringMatching(ISO),
    });
    expect(on.wallet_controls_synced).toBe(true);
    const off = await m.expectStatus(setSwitch('faucet', false, 'over'), 200);
    expect(off.kill_switches.find((k: { name: string }) => k.name === 'faucet')).toMatchObject({ enabled: false, reason: 'over' });
  });

  it('refuses an unknown switch and a missing reason (400), agents (403)', async () => {
    expectProblem(await setSwitch('everything', true), 400, 'validation_failed');
    expectProblem(await m.op('POST', '/v1/market-integrity/kill-switches', { name: 'awards', enabled: true }), 400, 'validation_failed');
    const agent = await m.newAgent('int-agent2');
    expectProblem(await m.as(agent, 'POST', '/v1/market-integrity/kill-switches', { name: 'awards', enabled: true, reason: 'r' }), 403, 'operator_token_required');
  });
});

describe('GET /v1/market-integrity/audit', () => {
  it('lists the changes newest first, filtered by action', async () => {
    await m.expectStatus(setSwitch('awards', true, 'audit me'), 200);
    const page = await m.expectStatus(m.op('GET', '/v1/market-integrity/audit?action=kill_switch_set&limit=1'), 200);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      audit_id: expect.stringMatching(/^aud_/),
      action: 'kill_switch_set',
      operator: expect.stringMatching(/^operator:/),
      reason: 'audit me',
      subject: 'awards',
      details: { name: 'awards', before: { enabled: false }, after: { enabled: true } },
      created_at: expect.stringMatching(ISO),
    });
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('is operator only (403)', async () => {
    const agent = await m.newAgent('int-agent3');
    expectProblem(await m.as(agent, 'GET', '/v1/market-integrity/audit'), 403, 'operator_token_required');
  });
});

describe('POST /v1/market-integrity/erroneous-clear', () => {
  it('reverses a settlement exactly: contract corrected, a correction receipt, balances back, ledger consistent', async () => {
    const s = await m.settled({ funds: '150', price: '100' });
    const settled = await m.contract(s.contractId);
    await m.expectBalance(s.buyer, { available: '50', held: '0' });
    await m.expectBalance(s.seller, { available: '99', held: '0' });
    const res = await m.expectStatus(clear(s.contractId, 'paid the wrong seller'), 200);
    expect(res.contract).toMatchObject({
      contract_id: s.contractId,
      status: 'corrected',
      corrected_at: expect.stringMatching(ISO),
      correction_reason: 'paid the wrong seller',
      correction_receipt_id: res.receipt.receipt_id,
      receipt_id: settled.receipt_id,
    });
    expect(res.receipt).toMatchObject({ kind: 'correction', corrects_receipt_id: settled.receipt_id, reason: 'paid the wrong seller', amount: '100', fee: '1' });
    await m.expectBalance(s.buyer, { available: '150', held: '0' });
    await m.expectBalance(s.seller, { available: '0', held: '0' });
    const receipt = await m.expectStatus(m.op('GET', `/v1/receipts/${res.receipt.receipt_id}`), 200);
    expect(receipt).toMatchObject({ kind: 'correction', corrects_receipt_id: settled.receipt_id });
    await m.expectLedgerOk();
    expect((await m.contract(s.contractId)).status).toBe('corrected');

    const twice = expectProblem(await clear(s.contractId), 409, 'invalid_state');
    expect(twice).toMatchObject({ current: 'corrected' });
  });

  it('refuses a contract not settled (409), an unknown contract (404), agents (403), no reason (400)', async () => {
    const a = await m.awarded();
    expect(expectProblem(await clear(a.contractId), 409, 'invalid_state')).toMatchObject({ current: 'awarded', wanted: 'corrected' });
    expectProblem(await clear('ctr_00000000-0000-7000-8000-000000000000'), 404, 'contract_not_found');
    expectProblem(await m.as(a.buyer, 'POST', '/v1/market-integrity/erroneous-clear', { contract_id: a.contractId, reason: 'r' }), 403, 'operator_token_required');
    expectProblem(await m.op('POST', '/v1/market-integrity/erroneous-clear', { contract_id: a.contractId }), 400, 'validation_failed');
  });

  it('answers 409 insufficient_funds when the seller spent the payout; the contract stays settled', async () => {
    const s = await m.settled({ funds: '150', price: '100' });
    const other = await m.newAgent('int-other');
    await m.expectStatus(m.as(s.seller, 'POST', walletPath(s.seller, '/transfer'), { to_agent_id: other.agentId, amount: '90', currency: 'CREDIT', idempotency_key: newKey() }), 201);
    expectProblem(await clear(s.contractId), 409, 'insufficient_funds');
    expect((await m.contract(s.contractId)).status).toBe('settled');
    await m.expectBalance(s.buyer, { available: '50', held: '0' });
  });
});

describe('each state and kill switch blocks exactly what it should and nothing else', () => {
  type Action = 'new_contract' | 'award' | 'settle' | 'withdrawal' | 'faucet' | 'other_mutation';
  const ALLOWED = 'allowed';

  /** Fresh fixtures, then one attempt of every action: its 503 code, or "allowed". */
  async function probe(apply: () => Promise<void>): Promise<Record<Action, string>> {
    const buyer = await m.newAgent('mx-buyer');
    await m.fund(buyer, '150');
    const contract = await m.openContract(buyer);
    const offer = await m.submitOffer(await m.newAgent('mx-seller'), contract.contract_id);
    const open = { buyer, contract, offer };
    const d = await m.delivered();
    const spender: RawAgent = await m.newAgent('mx-spender');
    await m.fund(spender, '20');
    const pod = await m.expectStatus(m.as(spender, 'POST', walletPath(spender, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
    await apply();
    const outcome = (res: { status: number; body: any }, ok: number[]) => {
      if (res.status === 503) return res.body.code as string;
      if (!ok.includes(res.status)) throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`);
      return ALLOWED;
    };
    return {
      new_contract: outcome(await m.createContract(open.buyer), [201]),
      award: outcome(await m.award(open.contract.contract_id, open.offer.offer_id), [200]),
      settle: outcome(await m.verify(d.buyer, d.contractId, d.result.result_id, 'pass'), [201]),
      // A sandbox agent may not withdraw (403): reaching that check means the switch let it through.
      withdrawal: outcome(
        await m.as(spender, 'POST', walletPath(spender, '/withdrawals'), { amount: '1', currency: 'CREDIT', payout_destination_id: pod.payout_destination_id, idempotency_key: newKey() }),
        [201, 403],
      ),
      faucet: outcome(await m.as(spender, 'POST', walletPath(spender, '/faucet'), { amount: '1', category: `mx-${newKey()}`, idempotency_key: newKey() }), [201]),
      other_mutation: outcome(await m.as(spender, 'POST', '/v1/listings', { title: 'A listing', tags: ['mx'], price: { amount: '5', currency: 'CREDIT' } }), [201]),
    };
  }

  const none: Record<Action, string> = { new_contract: ALLOWED, award: ALLOWED, settle: ALLOWED, withdrawal: ALLOWED, faucet: ALLOWED, other_mutation: ALLOWED };

  it.each([
    ['elevated', () => climbTo('elevated'), {}],
    ['restricted', () => climbTo('restricted'), { new_contract: 'market_restricted' }],
    ['halted', () => climbTo('halted'), { new_contract: 'market_halted', award: 'market_halted', settle: 'market_halted' }],
    ['new_contracts', () => m.expectStatus(setSwitch('new_contracts', true), 200).then(() => undefined), { new_contract: 'kill_switch:new_contracts' }],
    ['awards', () => m.expectStatus(setSwitch('awards', true), 200).then(() => undefined), { award: 'kill_switch:awards' }],
    ['settlements', () => m.expectStatus(setSwitch('settlements', true), 200).then(() => undefined), { settle: 'kill_switch:settlements' }],
    ['withdrawals', () => m.expectStatus(setSwitch('withdrawals', true), 200).then(() => undefined), { withdrawal: 'kill_switch:withdrawals' }],
    ['faucet', () => m.expectStatus(setSwitch('faucet', true), 200).then(() => undefined), { faucet: 'kill_switch:faucet' }],
  ] as Array<[string, () => Promise<void>, Partial<Record<Action, string>>]>)('%s', async (_name, apply, blocked) => {
    expect(await probe(apply)).toEqual({ ...none, ...blocked });
  });

  it('read_only: every mutation 503, GETs fine, and the integrity POSTs still work', async () => {
    const result = await probe(() => m.expectStatus(setSwitch('read_only', true), 200).then(() => undefined));
    expect(result).toEqual({
      new_contract: 'read_only',
      award: 'read_only',
      settle: 'read_only',
      withdrawal: 'read_only',
      faucet: 'read_only',
      other_mutation: 'read_only',
    });
    expect((await getState()).status).toBe(200);
    const agent = await m.newAgent('mx-reader').catch(() => null);
    expect(agent).toBeNull(); // registration is a mutation too
    expect((await m.op('GET', '/v1/contracts?limit=1')).status).toBe(200);
    await m.expectStatus(setState('elevated', 'still works in read-only'), 200);
    await m.expectStatus(setSwitch('read_only', false, 'over'), 200);
  });

  it('halted then normal: a report refused while halted settles once the market is normal again', async () => {
    const d = await m.delivered({ funds: '150', price: '100' });
    await climbTo('halted');
    expectProblem(await m.verify(d.buyer, d.contractId, d.result.result_id, 'pass'), 503, 'market_halted');
    expect((await m.contract(d.contractId)).status).toBe('delivered');
    await m.expectStatus(setState('normal', 'incident over'), 200);
    await m.expectStatus(m.verify(d.buyer, d.contractId, d.result.result_id, 'pass'), 201);
    expect((await m.contract(d.contractId)).status).toBe('settled');
  });
});
