import { status } from '@grpc/grpc-js';
import { identityV1, walletV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, startTestWallet, type TestWallet } from './wallet-harness';

const { DepositMethod, HoldStatus, PayoutDestinationType, WithdrawalStatus } = walletV1;

// Issue 12 finding 14: a frozen agent's money does not move, whoever asks (the operator without
// X-Agent-Id reaches wallet-ledger as any other caller), from the moment identity says frozen —
// the identity cache (AGENT_CACHE_TTL_MS, long here on purpose) never decides it. Money coming in
// and the refunds the lifecycle requires still reach the frozen agent (README.md "Frozen agents").

const FROZEN = { grpcCode: status.PERMISSION_DENIED, code: 'agent_frozen' };

describe('wallet-ledger gRPC: frozen agents', () => {
  let t: TestWallet;
  let offsetMs = 0;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_frozen', env: { AGENT_CACHE_TTL_MS: '600000' }, clock: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await t?.close();
  });

  function newAgent(name: string, level = identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED): string {
    const a = agentId(name);
    t.identity.put({ agentId: a, level });
    return a;
  }

  /** An ATTESTED agent with `usd` confirmed and a sandbox payout destination (`details` e.g. simulate: fail). */
  async function withdrawer(usd: string, details: Record<string, string> = {}) {
    const a = newAgent('wd', identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED);
    const { deposit } = await t.client.createDeposit({ agentId: a, amount: usd, currency: 'USD', method: DepositMethod.DEPOSIT_METHOD_BANK, idempotencyKey: key() });
    await t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() });
    const pod = await t.client.createPayoutDestination({ agentId: a, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details, label: 'main', idempotencyKey: '' });
    return { agent: a, pod: pod.payoutDestination!.payoutDestinationId };
  }

  const withdrawalStatus = async (agent: string, withdrawalId: string) => (await t.client.getWithdrawal({ agentId: agent, withdrawalId })).withdrawal!.status;

  it("should refuse every move of a frozen agent's money at once, even with the identity answer cached; unfreezing lets it move at once", async () => {
    const f = newAgent('frozen');
    const other = newAgent('other');
    await fund(t.client, f, '100'); // the wallet has just looked f up: a warm cache says "active"
    const own = (await t.client.createHold({ agentId: f, amount: '10', currency: 'CREDIT', idempotencyKey: key() })).hold!;
    const escrow = (await t.client.createHold({ agentId: f, amount: '20', currency: 'CREDIT', reference: 'ctr_f', idempotencyKey: key(), controller: 'market' })).hold!;
    const { deposit } = await t.client.createDeposit({ agentId: f, amount: '5', currency: 'CREDIT', method: DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: key() });
    const before = await outboxCount(t.sql);

    t.identity.freeze(f);
    const moves: Array<[string, () => Promise<unknown>]> = [
      ['faucet', () => t.client.faucet({ agentId: f, amount: '1', currency: 'CREDIT', category: 'x', idempotencyKey: key() })],
      ['transfer out', () => t.client.transfer({ agentId: f, toAgentId: other, amount: '1', currency: 'CREDIT', idempotencyKey: key() })],
      ['create hold', () => t.client.createHold({ agentId: f, amount: '1', currency: 'CREDIT', idempotencyKey: key() })],
      ['release own hold', () => t.client.releaseHold({ agentId: f, holdId: own.holdId, idempotencyKey: key() })],
      ['consume own hold', () => t.client.consumeHold({ agentId: f, holdId: own.holdId, toAgentId: other, idempotencyKey: key() })],
      ['settle its escrow', () => t.client.settle({ agentId: f, holdId: escrow.holdId, contractId: 'ctr_f', payeeAgentId: other, idempotencyKey: key() })],
      ['create deposit', () => t.client.createDeposit({ agentId: f, amount: '1', currency: 'CREDIT', method: DepositMethod.DEPOSIT_METHOD_SANDBOX, idempotencyKey: key() })],
      ['confirm deposit', () => t.client.confirmDeposit({ agentId: f, depositId: deposit!.depositId, idempotencyKey: key() })],
      ['expire deposit', () => t.client.expireDeposit({ agentId: f, depositId: deposit!.depositId, idempotencyKey: key() })],
      ['payout destination', () => t.client.createPayoutDestination({ agentId: f, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details: {}, label: '', idempotencyKey: '' })],
      ['withdrawal', () => t.client.createWithdrawal({ agentId: f, amount: '1', currency: 'CREDIT', payoutDestinationId: 'pod_x', idempotencyKey: key() })],
      ['cancel withdrawal', () => t.client.cancelWithdrawal({ agentId: f, withdrawalId: 'wdr_x', idempotencyKey: key() })],
    ];
    for (const [name, move] of moves) expect({ name, error: await grpcError(move()) }).toMatchObject({ name, error: FROZEN });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, f)).toEqual({ CREDIT: { available: '70', held: '30' } });
    expect(await balancesOf(t.client, other)).toEqual({ CREDIT: { available: '0', held: '0' } });

    t.identity.freeze(f, false);
    await t.client.transfer({ agentId: f, toAgentId: other, amount: '1', currency: 'CREDIT', idempotencyKey: key() });
    await t.client.releaseHold({ agentId: f, holdId: own.holdId, idempotencyKey: key() });
    expect(await balancesOf(t.client, f)).toEqual({ CREDIT: { available: '79', held: '20' } });
    // And frozen again: at once again.
    t.identity.freeze(f);
    expect(await grpcError(t.client.transfer({ agentId: f, toAgentId: other, amount: '1', currency: 'CREDIT', idempotencyKey: key() }))).toMatchObject(FROZEN);
    expect(await balancesOf(t.client, other)).toEqual({ CREDIT: { available: '1', held: '0' } });
  });

  it('should still let money in and the lifecycle refund the frozen agent: transfers and settlements to it, Refund of its escrow, expiry of its hold', async () => {
    const f = newAgent('frozen-in');
    const payer = newAgent('payer');
    await fund(t.client, f, '100');
    await fund(t.client, payer, '100');
    const escrow = (await t.client.createHold({ agentId: f, amount: '40', currency: 'CREDIT', reference: 'ctr_r', idempotencyKey: key(), controller: 'market' })).hold!;
    const expiring = (await t.client.createHold({ agentId: f, amount: '10', currency: 'CREDIT', idempotencyKey: key(), expiresAt: new Date(Date.now() + 60_000) })).hold!;
    const payerEscrow = (await t.client.createHold({ agentId: payer, amount: '30', currency: 'CREDIT', reference: 'ctr_p', idempotencyKey: key(), controller: 'market' })).hold!;
    t.identity.freeze(f);

    await t.client.transfer({ agentId: payer, toAgentId: f, amount: '5', currency: 'CREDIT', idempotencyKey: key() });
    await t.client.settle({ agentId: payer, holdId: payerEscrow.holdId, contractId: 'ctr_p', payeeAgentId: f, idempotencyKey: key() });
    const refunded = await t.client.refund({ agentId: f, holdId: escrow.holdId, contractId: 'ctr_r', idempotencyKey: key() });
    expect(refunded.hold!.status).toBe(HoldStatus.HOLD_STATUS_RELEASED);
    offsetMs = 120_000;
    try {
      expect(await t.wallet.workers.sweepHolds()).toBeGreaterThanOrEqual(1);
    } finally {
      offsetMs = 0;
    }
    expect((await t.client.getHold({ agentId: f, holdId: expiring.holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_EXPIRED);
    // 50 available + 5 transferred + 30 settled + 40 refunded + 10 expired.
    expect(await balancesOf(t.client, f)).toEqual({ CREDIT: { available: '135', held: '0' } });
    // …and it stays there while frozen.
    expect(await grpcError(t.client.transfer({ agentId: f, toAgentId: payer, amount: '1', currency: 'CREDIT', idempotencyKey: key() }))).toMatchObject(FROZEN);
  });

  it('should not take a settlement back from a frozen payee (CorrectSettlement); after unfreezing it goes through', async () => {
    const buyer = newAgent('c-buyer');
    const seller = newAgent('c-seller');
    await fund(t.client, buyer, '50');
    const { hold } = await t.client.createHold({ agentId: buyer, amount: '50', currency: 'CREDIT', reference: 'ctr_c', idempotencyKey: key(), controller: 'market' });
    const { receipt } = await t.client.settle({ agentId: buyer, holdId: hold!.holdId, contractId: 'ctr_c', payeeAgentId: seller, fee: '0.5', idempotencyKey: key() });
    t.identity.freeze(seller);
    const correct = { agentId: buyer, receiptId: receipt!.receiptId, reason: 'erroneous clear', idempotencyKey: key() };
    expect(await grpcError(t.client.correctSettlement(correct))).toMatchObject(FROZEN);
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '49.5', held: '0' } });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '0', held: '0' } });
    t.identity.freeze(seller, false);
    await t.client.correctSettlement(correct);
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '0', held: '0' } });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '50', held: '0' } });
  });

  it("should not start a frozen agent's requested withdrawal; one already processing finishes (a failure refunds); unfrozen, it goes out", async () => {
    const a = await withdrawer('300');
    const b = await withdrawer('300', { simulate: 'fail' });
    const processing = (await t.client.createWithdrawal({ agentId: a.agent, amount: '100', currency: 'USD', payoutDestinationId: a.pod, idempotencyKey: key() })).withdrawal!;
    const failing = (await t.client.createWithdrawal({ agentId: b.agent, amount: '100', currency: 'USD', payoutDestinationId: b.pod, idempotencyKey: key() })).withdrawal!;
    await t.wallet.workers.processPayouts();
    expect(await withdrawalStatus(a.agent, processing.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_PROCESSING);
    expect(await withdrawalStatus(b.agent, failing.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_PROCESSING);
    const requested = (await t.client.createWithdrawal({ agentId: a.agent, amount: '50', currency: 'USD', payoutDestinationId: a.pod, idempotencyKey: key() })).withdrawal!;
    t.identity.freeze(a.agent);
    t.identity.freeze(b.agent);

    await t.wallet.workers.processPayouts();
    await t.wallet.workers.processPayouts();
    expect(await withdrawalStatus(a.agent, processing.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED);
    expect(await withdrawalStatus(b.agent, failing.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_FAILED);
    expect(await withdrawalStatus(a.agent, requested.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED);
    expect((await balancesOf(t.client, a.agent)).USD).toEqual({ available: '150', held: '50' });
    expect((await balancesOf(t.client, b.agent)).USD).toEqual({ available: '300', held: '0' });

    t.identity.freeze(a.agent, false);
    await t.wallet.workers.processPayouts();
    await t.wallet.workers.processPayouts();
    expect(await withdrawalStatus(a.agent, requested.withdrawalId)).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED);
    expect((await balancesOf(t.client, a.agent)).USD).toEqual({ available: '150', held: '0' });
  });
});
