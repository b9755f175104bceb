import { MarketHttp, expectProblem, money, newKey, walletPath } from './market-http';
import { eventually } from './wallet-http';
import { bootStack, type Stack } from './stack';

// Issue 12, finding 14: wallet-ledger itself refuses to move a frozen agent's money, whoever asks
// — the operator without X-Agent-Id included (the gateway only checks the acting agent) — from
// the moment the freeze answered (no identity cache in between). The refunds the lifecycle
// requires still reach a frozen buyer. See apps/wallet-ledger/README.md "Frozen agents".

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

describe("a frozen agent's money", () => {
  it('the operator without X-Agent-Id cannot move it (403 agent_frozen) right after the freeze; nothing changes; after unfreezing it can', async () => {
    const frozen = await m.newAgent('frz');
    const other = await m.newAgent('frz-to');
    await m.fund(frozen, '100');
    // Its own hold, and a wallet the ledger has just looked the agent up for (a warm identity cache).
    const hold = await m.expectStatus(m.as(frozen, 'POST', walletPath(frozen, '/holds'), { ...money('10'), idempotency_key: newKey('frz') }), 201);
    await m.expectBalance(frozen, { available: '90', held: '10' });

    await m.expectStatus(m.op('POST', `/v1/agents/${frozen.agentId}/freeze`, { reason: 'fraud review' }), 200);
    const moves = [
      () => m.op('POST', walletPath(frozen, '/transfer'), { to_agent_id: other.agentId, ...money('5'), idempotency_key: newKey('frz') }),
      () => m.op('POST', walletPath(frozen, '/holds'), { ...money('5'), idempotency_key: newKey('frz') }),
      () => m.op('POST', walletPath(frozen, `/holds/${hold.hold_id}/release`), { idempotency_key: newKey('frz') }),
      () => m.op('POST', walletPath(frozen, `/holds/${hold.hold_id}/consume`), { to_agent_id: other.agentId, idempotency_key: newKey('frz') }),
      () => m.op('POST', walletPath(frozen, '/faucet'), { amount: '5', category: 'frz', idempotency_key: newKey('frz') }),
      () => m.op('POST', walletPath(frozen, '/deposits'), { ...money('5'), method: 'sandbox', idempotency_key: newKey('frz') }),
    ];
    for (const move of moves) expectProblem(await move(), 403, 'agent_frozen');
    await m.expectBalance(frozen, { available: '90', held: '10' });
    await m.expectBalance(other, { available: '0', held: '0' });
    // Money in from another agent is not the frozen agent's money moving: allowed.
    await m.fund(other, '3');
    await m.expectStatus(m.as(other, 'POST', walletPath(other, '/transfer'), { to_agent_id: frozen.agentId, ...money('3'), idempotency_key: newKey('frz') }), 201);
    await m.expectBalance(frozen, { available: '93', held: '10' });

    // Unfrozen: the same moves go through at once.
    await m.expectStatus(m.op('POST', `/v1/agents/${frozen.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    await m.expectStatus(m.op('POST', walletPath(frozen, '/transfer'), { to_agent_id: other.agentId, ...money('5'), idempotency_key: newKey('frz') }), 201);
    await m.expectStatus(m.op('POST', walletPath(frozen, `/holds/${hold.hold_id}/release`), { idempotency_key: newKey('frz') }), 200);
    await m.expectBalance(frozen, { available: '98', held: '0' });
    await m.expectBalance(other, { available: '5', held: '0' });
  });

  it('a freeze right after an unfreeze takes effect at once too', async () => {
    const agent = await m.newAgent('frz2');
    const other = await m.newAgent('frz2-to');
    await m.fund(agent, '20');
    await m.expectStatus(m.op('POST', `/v1/agents/${agent.agentId}/freeze`, { reason: 'review' }), 200);
    expectProblem(await m.op('POST', walletPath(agent, '/transfer'), { to_agent_id: other.agentId, ...money('1'), idempotency_key: newKey('frz') }), 403, 'agent_frozen');
    await m.expectStatus(m.op('POST', `/v1/agents/${agent.agentId}/unfreeze`, { reason: 'cleared' }), 200);
    await m.expectStatus(m.op('POST', walletPath(agent, '/transfer'), { to_agent_id: other.agentId, ...money('1'), idempotency_key: newKey('frz') }), 201);
    await m.expectStatus(m.op('POST', `/v1/agents/${agent.agentId}/freeze`, { reason: 'again' }), 200);
    expectProblem(await m.op('POST', walletPath(agent, '/transfer'), { to_agent_id: other.agentId, ...money('1'), idempotency_key: newKey('frz') }), 403, 'agent_frozen');
    await m.expectBalance(agent, { available: '19', held: '0' });
    await m.expectBalance(other, { available: '1', held: '0' });
  });

  it('a lifecycle refund still reaches a frozen buyer: the operator cancels an awarded contract, the escrow comes back', async () => {
    const { buyer, contractId } = await m.awarded({ funds: '100', price: '60' });
    await m.expectBalance(buyer, { available: '40', held: '60' });
    await m.expectStatus(m.op('POST', `/v1/agents/${buyer.agentId}/freeze`, { reason: 'review' }), 200);
    await m.expectStatus(m.op('POST', `/v1/contracts/${contractId}/cancel`, { reason: 'buyer under review' }), 200);
    const cancelled = await eventually(() => m.contract(contractId), (c) => c.escrow_status === 'released', 40, 250);
    expect(cancelled).toMatchObject({ status: 'cancelled', receipt_id: expect.stringMatching(/^rcpt_/) });
    await m.expectBalance(buyer, { available: '100', held: '0' });
    // The refunded money stays put while frozen.
    expectProblem(await m.op('POST', walletPath(buyer, '/transfer'), { to_agent_id: (await m.newAgent('frz3-to')).agentId, ...money('1'), idempotency_key: newKey('frz') }), 403, 'agent_frozen');
  });
});
