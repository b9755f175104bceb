import { ExchangeClient } from '@exchange/sdk';
import { expectProblem } from './http';
import { RawAgent, uniqueAgentId } from './raw-agent';
import { bootStack, type Stack } from './stack';
import { eventually, newKey, WalletHttp, walletPath } from './wallet-http';

// Cancelling withdrawals end to end. The payout processor is off in this stack
// (PAYOUT_PROCESSOR_INTERVAL_MS=0), so a withdrawal stays `requested` until it is cancelled:
// no race with the processor moving it to `processing` first.

let stack: Stack;
let w: WalletHttp;

beforeAll(async () => {
  stack = await bootStack({ env: { PAYOUT_PROCESSOR_INTERVAL_MS: '0' } });
  w = new WalletHttp(stack.baseUrl, stack.operatorToken);
});

afterAll(async () => {
  await stack?.stop();
});

/** A MAINNET_ATTESTED agent with `amount` CREDIT (deposit confirmed by the operator) and a sandbox destination. */
async function withdrawer(name: string, amount: string): Promise<{ agent: RawAgent; destinationId: string }> {
  const agent = new RawAgent(uniqueAgentId(name));
  await w.register(agent);
  const deposit = await w.expectStatus(w.as(agent, 'POST', walletPath(agent, '/deposits'), { amount, currency: 'CREDIT', method: 'sandbox', idempotency_key: newKey() }), 201);
  await w.expectStatus(w.op('POST', walletPath(agent, `/deposits/${deposit.deposit_id}/confirm`), { idempotency_key: newKey() }), 200);
  for (const level of ['MAINNET_BASIC', 'MAINNET_ATTESTED']) {
    await w.expectStatus(w.op('POST', `/v1/agents/${agent.agentId}/identity_level`, { identity_level: level, reason: 'e2e KYC' }), 200);
  }
  const pod = await w.expectStatus(w.as(agent, 'POST', walletPath(agent, '/payout_destinations'), { type: 'sandbox', details: {}, label: 'p' }), 201);
  return { agent, destinationId: pod.payout_destination_id };
}

/** Retries with fresh keys while wallet-ledger still has the pre-KYC level cached. */
async function requestWithdrawal(agent: RawAgent, destinationId: string, amount: string) {
  const res = await eventually(
    () => w.as(agent, 'POST', walletPath(agent, '/withdrawals'), { amount, currency: 'CREDIT', payout_destination_id: destinationId, idempotency_key: newKey() }),
    (r) => !(r.status === 403 && r.body?.code === 'identity_level_insufficient'),
    40,
  );
  return w.expectStatus(res, 201);
}

describe('POST /v1/wallets/{agent_id}/withdrawals/{withdrawal_id}/cancel', () => {
  it('cancels a requested withdrawal and refunds it; cancelling again is 409 invalid_state', async () => {
    const { agent, destinationId } = await withdrawer('cancel-alice', '100');
    const wd = await requestWithdrawal(agent, destinationId, '60');
    expect(wd.status).toBe('requested');
    expect(await w.balance(agent)).toEqual({ available: '40', held: '60' });

    const cancelled = await w.expectStatus(w.as(agent, 'POST', walletPath(agent, `/withdrawals/${wd.withdrawal_id}/cancel`), { idempotency_key: newKey() }), 200);
    expect(cancelled).toMatchObject({ withdrawal_id: wd.withdrawal_id, status: 'cancelled' });
    expect(await w.balance(agent)).toEqual({ available: '100', held: '0' });
    expect(await w.expectStatus(w.as(agent, 'GET', walletPath(agent, `/withdrawals/${wd.withdrawal_id}`)), 200)).toMatchObject({ status: 'cancelled' });

    const again = expectProblem(await w.as(agent, 'POST', walletPath(agent, `/withdrawals/${wd.withdrawal_id}/cancel`), { idempotency_key: newKey() }), 409, 'invalid_state');
    expect(again).toMatchObject({ current: 'cancelled' });
    expect(await w.balance(agent)).toEqual({ available: '100', held: '0' });
  });

  it('cancels through the SDK with the operator acting for the agent', async () => {
    const { agent, destinationId } = await withdrawer('cancel-sdk', '10');
    const wd = await requestWithdrawal(agent, destinationId, '10');
    const sdk = new ExchangeClient({ baseUrl: stack.baseUrl, operatorToken: stack.operatorToken });
    const cancelled = await sdk.wallets.cancelWithdrawal(agent.agentId, wd.withdrawal_id, { idempotencyKey: newKey('sdk-cancel') });
    expect(cancelled.status).toBe('cancelled');
    expect(await w.balance(agent)).toEqual({ available: '10', held: '0' });
  });

  it('refuses another agent (403 forbidden) and an unknown withdrawal (404)', async () => {
    const { agent, destinationId } = await withdrawer('cancel-owner', '5');
    const eve = new RawAgent(uniqueAgentId('cancel-eve'));
    await w.register(eve);
    const wd = await requestWithdrawal(agent, destinationId, '5');
    expectProblem(await w.as(eve, 'POST', walletPath(agent, `/withdrawals/${wd.withdrawal_id}/cancel`), { idempotency_key: newKey() }), 403, 'forbidden');
    expectProblem(await w.as(agent, 'POST', walletPath(agent, '/withdrawals/wdr_00000000-0000-7000-8000-000000000000/cancel'), { idempotency_key: newKey() }), 404, 'withdrawal_not_found');
    expect(await w.balance(agent)).toEqual({ available: '0', held: '5' });
  });
});
