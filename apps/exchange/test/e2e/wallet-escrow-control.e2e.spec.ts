import type { HttpResult } from './http';
import { MarketHttp, expectProblem, money, newKey, walletPath } from './market-http';
import type { RawAgent } from './raw-agent';
import { bootStack, type Stack } from './stack';

// Issue 12, finding 2: the market's escrow is a hold on the buyer's wallet controlled by the
// market. The wallet routes (release, consume) refuse it — 403 hold_controlled_by_market — to the
// buyer, to the operator (with or without X-Agent-Id, acting for the seller or a third agent too);
// other agents' own signatures never reach it. Nothing moves, and the contract's lifecycle still
// settles (or resolves) it afterwards.

let stack: Stack;
let m: MarketHttp;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  m = new MarketHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  if (m) await m.expectLedgerOk();
  await stack?.stop();
});

type Attempt = { who: string; send: () => Promise<HttpResult> };

/** Every way an agent or the operator can ask the wallet routes to release or consume `holdId` of `buyer`. */
function attempts(buyer: RawAgent, seller: RawAgent, third: RawAgent, holdId: string): Attempt[] {
  const release = walletPath(buyer, `/holds/${holdId}/release`);
  const consume = walletPath(buyer, `/holds/${holdId}/consume`);
  const out: Attempt[] = [];
  for (const to of [seller, third]) {
    const consumeBody = () => ({ to_agent_id: to.agentId, idempotency_key: newKey('steal') });
    out.push(
      { who: `buyer releases`, send: () => m.as(buyer, 'POST', release, { idempotency_key: newKey('steal') }) },
      { who: `buyer consumes to ${to.agentId}`, send: () => m.as(buyer, 'POST', consume, consumeBody()) },
      { who: 'buyer consumes part', send: () => m.as(buyer, 'POST', consume, { ...consumeBody(), amount: '1' }) },
      { who: 'operator releases', send: () => m.op('POST', release, { idempotency_key: newKey('steal') }) },
      { who: `operator consumes to ${to.agentId}`, send: () => m.op('POST', consume, consumeBody()) },
      { who: 'operator as buyer releases', send: () => m.op('POST', release, { idempotency_key: newKey('steal') }, { 'x-agent-id': buyer.agentId }) },
      { who: 'operator as buyer consumes', send: () => m.op('POST', consume, consumeBody(), { 'x-agent-id': buyer.agentId }) },
      { who: 'operator as seller releases', send: () => m.op('POST', release, { idempotency_key: newKey('steal') }, { 'x-agent-id': seller.agentId }) },
      { who: 'operator as seller consumes', send: () => m.op('POST', consume, consumeBody(), { 'x-agent-id': seller.agentId }) },
      { who: 'operator as third releases', send: () => m.op('POST', release, { idempotency_key: newKey('steal') }, { 'x-agent-id': third.agentId }) },
      { who: 'operator as third consumes', send: () => m.op('POST', consume, consumeBody(), { 'x-agent-id': third.agentId }) },
      { who: 'buyer releases (key in header)', send: () => m.as(buyer, 'POST', release, undefined, { 'idempotency-key': newKey('steal') }) },
    );
  }
  return out;
}

/** Seller and third agent signing for themselves: the buyer's wallet is not theirs (403), their own wallet has no such hold (404). */
async function expectOthersCannotReach(others: RawAgent[], buyer: RawAgent, holdId: string) {
  for (const agent of others) {
    const onBuyer = walletPath(buyer, `/holds/${holdId}`);
    expectProblem(await m.as(agent, 'POST', `${onBuyer}/release`, { idempotency_key: newKey('steal') }), 403, 'forbidden');
    expectProblem(await m.as(agent, 'POST', `${onBuyer}/consume`, { to_agent_id: agent.agentId, idempotency_key: newKey('steal') }), 403, 'forbidden');
    const onOwn = walletPath(agent, `/holds/${holdId}`);
    expectProblem(await m.as(agent, 'POST', `${onOwn}/release`, { idempotency_key: newKey('steal') }), 404, 'hold_not_found');
    expectProblem(await m.as(agent, 'POST', `${onOwn}/consume`, { to_agent_id: buyer.agentId, idempotency_key: newKey('steal') }), 404, 'hold_not_found');
  }
}

async function expectEscrowRefused(buyer: RawAgent, seller: RawAgent, third: RawAgent, holdId: string) {
  for (const attempt of attempts(buyer, seller, third, holdId)) {
    const res = await attempt.send();
    if (res.status !== 403 || res.body?.code !== 'hold_controlled_by_market') {
      throw new Error(`${attempt.who}: expected 403 hold_controlled_by_market, got ${res.status} ${res.text}`);
    }
    expectProblem(res, 403, 'hold_controlled_by_market');
  }
  await expectOthersCannotReach([seller, third], buyer, holdId);
}

describe('escrow holds are controlled by the market', () => {
  it('awarded: release and consume of the escrow hold are refused to everyone, nothing moves, the contract then settles and pays the seller', async () => {
    const { buyer, seller, contractId, contract } = await m.awarded({ funds: '150', price: '100' });
    const third = await m.newAgent('escrow-third');
    const holdId = contract.hold_id as string;
    expect(contract).toMatchObject({ status: 'awarded', escrow_status: 'held', hold_id: expect.stringMatching(/^hld_/) });

    await expectEscrowRefused(buyer, seller, third, holdId);

    await m.expectBalance(buyer, { available: '50', held: '100' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    await m.expectBalance(third, { available: '0', held: '0' });
    expect(await m.contract(contractId)).toMatchObject({ status: 'awarded', escrow_status: 'held', hold_id: holdId });

    // The lifecycle still works: delivered, verified, settled; the seller is paid (fee 1%).
    const result = await m.submitResult(seller, contractId);
    await m.expectStatus(m.verify(buyer, contractId, result.result_id, 'pass'), 201);
    expect(await m.contract(contractId)).toMatchObject({ status: 'settled', escrow_status: 'settled', receipt_id: expect.stringMatching(/^rcpt_/) });
    await m.expectBalance(buyer, { available: '50', held: '0' });
    await m.expectBalance(seller, { available: '99', held: '0' });
    await m.expectBalance(third, { available: '0', held: '0' });
    // Settled: the hold is consumed; the wallet routes still name its controller.
    expectProblem(await m.as(buyer, 'POST', walletPath(buyer, `/holds/${holdId}/release`), { idempotency_key: newKey('late') }), 403, 'hold_controlled_by_market');
  });

  it('disputed: the escrow cannot be consumed to anyone; the resolution moves it', async () => {
    const { buyer, seller, contractId, contract } = await m.delivered({ funds: '100', price: '100' });
    const third = await m.newAgent('escrow-third2');
    const holdId = contract.hold_id as string;
    const dispute = await m.expectStatus(m.openDispute(buyer, contractId), 201);
    expect(await m.contract(contractId)).toMatchObject({ status: 'disputed', escrow_status: 'held' });

    await expectEscrowRefused(buyer, seller, third, holdId);
    await m.expectBalance(buyer, { available: '0', held: '100' });
    await m.expectBalance(seller, { available: '0', held: '0' });
    await m.expectBalance(third, { available: '0', held: '0' });

    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'split', seller_share_bps: 5000 }), 200);
    expect(await m.contract(contractId)).toMatchObject({ status: 'split' });
    await m.expectBalance(buyer, { available: '50', held: '0' });
    await m.expectBalance(seller, { available: '49.5', held: '0' });
    await m.expectBalance(third, { available: '0', held: '0' });
  });

  it('a hold the buyer made itself through the wallet routes stays the buyer’s to release or consume', async () => {
    const buyer = await m.newAgent('own-hold');
    const other = await m.newAgent('own-hold-to');
    await m.fund(buyer, '30');
    const a = await m.expectStatus(m.as(buyer, 'POST', walletPath(buyer, '/holds'), { ...money('10'), idempotency_key: newKey('own') }), 201);
    const b = await m.expectStatus(m.op('POST', walletPath(buyer, '/holds'), { ...money('10'), idempotency_key: newKey('own') }), 201);
    await m.expectStatus(m.as(buyer, 'POST', walletPath(buyer, `/holds/${a.hold_id}/release`), { idempotency_key: newKey('own') }), 200);
    await m.expectStatus(m.op('POST', walletPath(buyer, `/holds/${b.hold_id}/consume`), { to_agent_id: other.agentId, amount: '4', idempotency_key: newKey('own') }), 200);
    await m.expectBalance(buyer, { available: '26', held: '0' });
    await m.expectBalance(other, { available: '4', held: '0' });
  });
});
