import { MarketHttp, expectProblem } from './market-http';
import { bootStack, type Stack } from './stack';

// The dispute window after settlement (MARKET_DISPUTE_WINDOW_DAYS, 7 by default). Waiting days is
// not an option end to end, so this stack runs with a window of 0 days: every settled contract is
// already past it, while disputes before settlement are unaffected.

let stack: Stack;
let m: MarketHttp;

beforeAll(async () => {
  stack = await bootStack({ env: { MARKET_DISPUTE_WINDOW_DAYS: '0' } });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

describe('POST /v1/contracts/{contract_id}/disputes (dispute window)', () => {
  it('refuses a dispute of a settled contract past the window (409 dispute_window_closed); nothing changes', async () => {
    const { buyer, seller, contractId } = await m.settled({ funds: '100', price: '100' });
    expectProblem(await m.openDispute(buyer, contractId), 409, 'dispute_window_closed');
    expectProblem(await m.openDispute(seller, contractId), 409, 'dispute_window_closed');
    expect(await m.contract(contractId)).toMatchObject({ status: 'settled', disputed_from: null });
    const disputes = await m.expectStatus(m.op('GET', `/v1/contracts/${contractId}/disputes`), 200);
    expect(disputes.data).toEqual([]);
    await m.expectBalance(buyer, { available: '0', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
  });

  it('still opens a dispute before settlement', async () => {
    const { buyer, contractId } = await m.delivered({ funds: '100', price: '100' });
    await m.expectStatus(m.openDispute(buyer, contractId), 201);
    expect((await m.contract(contractId)).status).toBe('disputed');
  });
});
