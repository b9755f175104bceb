import { status } from '@grpc/grpc-js';
import { walletV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, outboxOfType, startTestWallet, type TestWallet } from './wallet-harness';

describe('wallet-ledger gRPC: controls (kill switches and read-only mode)', () => {
  let t: TestWallet;
  const a = agentId('ctl-a');
  const b = agentId('ctl-b');

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_controls', agents: [{ agentId: a }, { agentId: b }] });
    await fund(t.client, a, '100');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should start with everything on and persist SetControls with a controls.changed event', async () => {
    expect(await t.client.getControls({})).toEqual({ controls: { readOnly: false, killSwitches: [] } });
    const res = await t.client.setControls({ controls: { readOnly: false, killSwitches: ['settlements', 'faucet', 'faucet'] }, reason: 'drill' });
    expect(res.controls).toEqual({ readOnly: false, killSwitches: ['faucet', 'settlements'] });
    expect(await t.client.getControls({})).toEqual(res);
    const [event] = (await outboxOfType(t.sql, 'exchange.wallet.controls.changed')).slice(-1);
    // proto3 JSON: read_only false is the default, so it is left out.
    expect(event.data).toEqual({ controls: { killSwitches: ['faucet', 'settlements'] }, reason: 'drill' });
    expect(await grpcError(t.client.faucet({ agentId: a, amount: '1', currency: 'CREDIT', category: 'x', idempotencyKey: key() }))).toMatchObject({
      grpcCode: status.UNAVAILABLE,
      code: 'kill_switch:faucet',
    });
    await t.client.transfer({ agentId: a, toAgentId: b, amount: '1', currency: 'CREDIT', idempotencyKey: key() });
    await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'drill over' });
  });

  it('should refuse an unknown kill switch', async () => {
    expect(await grpcError(t.client.setControls({ controls: { readOnly: false, killSwitches: ['everything'] }, reason: '' }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
    });
  });

  it('should refuse every mutation in read-only mode, write nothing, and keep reads working', async () => {
    const { hold } = await t.client.createHold({ agentId: a, amount: '5', currency: 'CREDIT', idempotencyKey: key() });
    // Settle and Refund are the market's path: they move the market's escrow.
    const { hold: escrow } = await t.client.createHold({ agentId: a, amount: '2', currency: 'CREDIT', idempotencyKey: key(), controller: 'market' });
    await t.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'maintenance' });
    const before = await outboxCount(t.sql);
    try {
      const k = key;
      const calls: Array<Promise<unknown>> = [
        t.client.faucet({ agentId: a, amount: '1', currency: 'CREDIT', category: 'x', idempotencyKey: k() }),
        t.client.transfer({ agentId: a, toAgentId: b, amount: '1', currency: 'CREDIT', idempotencyKey: k() }),
        t.client.createHold({ agentId: a, amount: '1', currency: 'CREDIT', idempotencyKey: k() }),
        t.client.releaseHold({ agentId: a, holdId: hold!.holdId, idempotencyKey: k() }),
        t.client.consumeHold({ agentId: a, holdId: hold!.holdId, toAgentId: b, idempotencyKey: k() }),
        t.client.createDeposit({ agentId: a, amount: '1', currency: 'CREDIT', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: k() }),
        t.client.createPayoutDestination({ agentId: a, type: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details: {}, label: '', idempotencyKey: '' }),
        t.client.settle({ agentId: a, holdId: escrow!.holdId, contractId: 'c', payeeAgentId: b, idempotencyKey: k() }),
        t.client.refund({ agentId: a, holdId: escrow!.holdId, contractId: 'c', idempotencyKey: k() }),
      ];
      for (const call of calls) expect(await grpcError(call)).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'read_only' });
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '92', held: '7' } });
      expect((await t.client.getHold({ agentId: a, holdId: hold!.holdId })).hold!.status).toBe(walletV1.HoldStatus.HOLD_STATUS_ACTIVE);
      expect(await t.wallet.workers.sweepHolds()).toBe(0);
      expect(await outboxCount(t.sql)).toBe(before);
    } finally {
      await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'maintenance over' });
    }
    await t.client.releaseHold({ agentId: a, holdId: hold!.holdId, idempotencyKey: key() });
    await t.client.refund({ agentId: a, holdId: escrow!.holdId, contractId: 'c', idempotencyKey: key() });
  });

  it('should refuse every mutation of a frozen agent with agent_frozen, and keep its reads working', async () => {
    const f = agentId('ctl-frozen');
    t.identity.put({ agentId: f });
    await fund(t.client, f, '50');
    const { hold } = await t.client.createHold({ agentId: f, amount: '5', currency: 'CREDIT', idempotencyKey: key() });
    const { deposit } = await t.client.createDeposit({ agentId: f, amount: '1', currency: 'CREDIT', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: key() });
    t.identity.freeze(f);
    const before = await outboxCount(t.sql);
    const calls: Array<Promise<unknown>> = [
      t.client.faucet({ agentId: f, amount: '1', currency: 'CREDIT', category: 'x', idempotencyKey: key() }),
      t.client.transfer({ agentId: f, toAgentId: b, amount: '1', currency: 'CREDIT', idempotencyKey: key() }),
      t.client.createHold({ agentId: f, amount: '1', currency: 'CREDIT', idempotencyKey: key() }),
      t.client.releaseHold({ agentId: f, holdId: hold!.holdId, idempotencyKey: key() }),
      t.client.consumeHold({ agentId: f, holdId: hold!.holdId, toAgentId: b, idempotencyKey: key() }),
      t.client.createDeposit({ agentId: f, amount: '1', currency: 'CREDIT', method: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: key() }),
      t.client.confirmDeposit({ agentId: f, depositId: deposit!.depositId, idempotencyKey: key() }),
      t.client.expireDeposit({ agentId: f, depositId: deposit!.depositId, idempotencyKey: key() }),
      t.client.createPayoutDestination({ agentId: f, type: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details: {}, label: '', idempotencyKey: '' }),
      t.client.createWithdrawal({ agentId: f, amount: '1', currency: 'CREDIT', payoutDestinationId: 'pod_x', idempotencyKey: key() }),
      t.client.cancelWithdrawal({ agentId: f, withdrawalId: 'wdr_x', idempotencyKey: key() }),
      t.client.settle({ agentId: f, holdId: hold!.holdId, contractId: 'c', payeeAgentId: b, idempotencyKey: key() }),
      // Refund is not here: the lifecycle's refund reaches a frozen payer (frozen.grpc.spec.ts).
    ];
    for (const call of calls) expect(await grpcError(call)).toMatchObject({ grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, f)).toEqual({ CREDIT: { available: '45', held: '5' } });
    expect((await t.client.getHold({ agentId: f, holdId: hold!.holdId })).hold!.status).toBe(walletV1.HoldStatus.HOLD_STATUS_ACTIVE);
    t.identity.freeze(f, false);
    await t.client.releaseHold({ agentId: f, holdId: hold!.holdId, idempotencyKey: key() });
  });

  it('should keep controls across a restart, and let WALLET_* switch more on at start', async () => {
    await t.client.setControls({ controls: { readOnly: false, killSwitches: ['withdrawals'] }, reason: 'persist me' });
    await t.restart();
    expect((await t.client.getControls({})).controls).toEqual({ readOnly: false, killSwitches: ['withdrawals'] });
    await t.restart({ WALLET_KILL_SWITCHES: 'faucet, settlements', WALLET_READ_ONLY: 'true' });
    expect((await t.client.getControls({})).controls).toEqual({ readOnly: true, killSwitches: ['withdrawals', 'faucet', 'settlements'] });
    const [event] = (await outboxOfType(t.sql, 'exchange.wallet.controls.changed')).slice(-1);
    expect(event.data.reason).toMatch(/at start/);
    await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'back' });
    await t.restart();
    expect((await t.client.getControls({})).controls).toEqual({ readOnly: false, killSwitches: [] });
  });
});
