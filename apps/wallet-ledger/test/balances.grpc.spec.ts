import { status } from '@grpc/grpc-js';
import { agentId, balancesOf, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

describe('wallet-ledger gRPC: balances, faucet and transfers', () => {
  let t: TestWallet;
  const alice = agentId('alice');
  const bob = agentId('bob');

  beforeAll(async () => {
    t = await startTestWallet({ agents: [{ agentId: alice }, { agentId: bob }], name: 'wallet_balances' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should show a new wallet with CREDIT 0', async () => {
    const res = await t.client.getBalance({ agentId: alice });
    expect(res.balances).toEqual([{ currency: 'CREDIT', available: '0', held: '0', total: '0' }]);
    expect(res.agentId).toBe(alice);
  });

  it('should grant faucet credits and move them with a transfer', async () => {
    const grant = await t.client.faucet({ agentId: alice, amount: '50', currency: '', category: 'compute', idempotencyKey: key() });
    expect(grant.grant).toMatchObject({ agentId: alice, amount: '50', currency: 'CREDIT', grantedToday: '50', remainingToday: '150' });
    const res = await t.client.transfer({ agentId: alice, toAgentId: bob, amount: '12.5', currency: 'CREDIT', memo: 'hi', idempotencyKey: key() });
    expect(res.transfer).toMatchObject({ fromAgentId: alice, toAgentId: bob, amount: '12.5', memo: 'hi' });
    expect(res.idempotentReplayed).toBe(false);
    expect(await balancesOf(t.client, alice)).toEqual({ CREDIT: { available: '37.5', held: '0' } });
    expect(await balancesOf(t.client, bob)).toEqual({ CREDIT: { available: '12.5', held: '0' } });
    const events = await outboxOf(t.sql, alice);
    expect(events.map((e) => e.type)).toEqual(['exchange.wallet.faucet.granted', 'exchange.wallet.transfer.completed']);
  });

  it('should refuse a transfer beyond the available balance', async () => {
    const err = await grpcError(t.client.transfer({ agentId: bob, toAgentId: alice, amount: '1000', currency: 'CREDIT', idempotencyKey: key() }));
    expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
  });
});
