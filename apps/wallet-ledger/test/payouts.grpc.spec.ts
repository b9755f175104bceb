import { status } from '@grpc/grpc-js';
import { identityV1, walletV1 } from '@exchange/proto';
import { fakePubkey } from '@exchange/testing';
import { agentId, balancesOf, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { PayoutDestinationType, WithdrawalStatus } = walletV1;
const { IdentityLevel } = identityV1;

describe('wallet-ledger gRPC: payout destinations and withdrawals', () => {
  let t: TestWallet;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_payouts', env: { INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: '5000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An agent at `level` with `usd` confirmed into its wallet. */
  async function newAgent(level = IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED, usd = '3000', pubkeys = [fakePubkey(7)]): Promise<string> {
    const a = agentId('payee');
    t.identity.put({ agentId: a, pubkeys, level });
    if (usd !== '0') {
      const { deposit } = await t.client.createDeposit({ agentId: a, amount: usd, currency: 'USD', method: walletV1.DepositMethod.DEPOSIT_METHOD_BANK, idempotencyKey: key() });
      await t.client.confirmDeposit({ agentId: a, depositId: deposit!.depositId, idempotencyKey: key() });
    }
    return a;
  }

  async function destination(agent: string, details: Record<string, string> = { account: 'sandbox-1' }): Promise<string> {
    const res = await t.client.createPayoutDestination({ agentId: agent, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details, label: 'main', idempotencyKey: '' });
    return res.payoutDestination!.payoutDestinationId;
  }

  const withdraw = (agent: string, amount: string, destinationId: string) =>
    t.client.createWithdrawal({ agentId: agent, amount, currency: 'USD', payoutDestinationId: destinationId, idempotencyKey: key() });

  describe('payout destinations', () => {
    it('should create and list destinations newest first, with an optional idempotency key', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED, '0');
      const req = { agentId: a, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_BANK_ACCOUNT, details: { iban: 'DE89370400440532013000' }, label: 'bank', idempotencyKey: key() };
      const first = await t.client.createPayoutDestination(req);
      expect(first.payoutDestination).toEqual({
        payoutDestinationId: expect.stringMatching(/^pod_/),
        agentId: a,
        type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_BANK_ACCOUNT,
        details: { iban: 'DE89370400440532013000' },
        label: 'bank',
        createdAt: expect.any(Date),
      });
      expect(await t.client.createPayoutDestination(req)).toEqual({ ...first, idempotentReplayed: true });
      const second = await destination(a);
      const list = await t.client.listPayoutDestinations({ agentId: a, page: undefined });
      expect(list.payoutDestinations.map((d) => d.payoutDestinationId)).toEqual([second, first.payoutDestination!.payoutDestinationId]);
      expect((await outboxOf(t.sql, a)).map((e) => e.type)).toEqual(Array(2).fill('exchange.wallet.payout_destination.created'));
    });

    it('should refuse a crypto address that is one of the agent\'s signing keys, however encoded', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED, '0', [fakePubkey(1), fakePubkey(9)]);
      for (const address of [fakePubkey(9), Buffer.alloc(32, 9).toString('base64url'), Buffer.alloc(32, 9).toString('hex')]) {
        const err = await grpcError(
          t.client.createPayoutDestination({ agentId: a, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS, details: { address }, label: '', idempotencyKey: '' }),
        );
        expect(err).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'signing_key_reuse' });
      }
      const ok = await t.client.createPayoutDestination({
        agentId: a,
        type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS,
        details: { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
        label: 'cold',
        idempotencyKey: '',
      });
      expect(ok.payoutDestination!.type).toBe(PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS);
    });

    it('should refuse an unspecified type', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED, '0');
      expect(
        await grpcError(t.client.createPayoutDestination({ agentId: a, type: PayoutDestinationType.PAYOUT_DESTINATION_TYPE_UNSPECIFIED, details: {}, label: '', idempotencyKey: '' })),
      ).toMatchObject({ code: 'validation_failed' });
    });
  });

  describe('withdrawals', () => {
    it('should hold the funds on request, then process → complete them in two payout rounds', async () => {
      const a = await newAgent();
      const pod = await destination(a);
      const { withdrawal } = await withdraw(a, '100', pod);
      expect(withdrawal).toMatchObject({ withdrawalId: expect.stringMatching(/^wdr_/), status: WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED, amount: '100', payoutDestinationId: pod });
      expect((await balancesOf(t.client, a)).USD).toEqual({ available: '2900', held: '100' });

      expect(await t.wallet.workers.processPayouts()).toBeGreaterThanOrEqual(1);
      expect((await t.client.getWithdrawal({ agentId: a, withdrawalId: withdrawal!.withdrawalId })).withdrawal!.status).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_PROCESSING);
      await t.wallet.workers.processPayouts();
      const done = (await t.client.getWithdrawal({ agentId: a, withdrawalId: withdrawal!.withdrawalId })).withdrawal!;
      expect(done).toMatchObject({ status: WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED, failureReason: undefined });
      expect(done.journalEntryIds).toHaveLength(2);
      expect((await balancesOf(t.client, a)).USD).toEqual({ available: '2900', held: '0' });
      expect((await outboxOf(t.sql, a)).map((e) => e.type).filter((x) => x.includes('withdrawal'))).toEqual([
        'exchange.wallet.withdrawal.requested',
        'exchange.wallet.withdrawal.processing',
        'exchange.wallet.withdrawal.completed',
      ]);
    });

    it('should fail a payout to a destination that simulates failure and refund it', async () => {
      const a = await newAgent();
      const pod = await destination(a, { simulate: 'fail' });
      const { withdrawal } = await withdraw(a, '100', pod);
      await t.wallet.workers.processPayouts();
      await t.wallet.workers.processPayouts();
      const failed = (await t.client.getWithdrawal({ agentId: a, withdrawalId: withdrawal!.withdrawalId })).withdrawal!;
      expect(failed).toMatchObject({ status: WithdrawalStatus.WITHDRAWAL_STATUS_FAILED, failureReason: expect.stringContaining('simulate') });
      expect((await balancesOf(t.client, a)).USD).toEqual({ available: '3000', held: '0' });
      expect((await outboxOf(t.sql, a)).map((e) => e.type).at(-1)).toBe('exchange.wallet.withdrawal.failed');
    });

    it('should cancel only a requested withdrawal, refunding it', async () => {
      const a = await newAgent();
      const pod = await destination(a);
      const first = (await withdraw(a, '10', pod)).withdrawal!;
      const res = await t.client.cancelWithdrawal({ agentId: a, withdrawalId: first.withdrawalId, idempotencyKey: key() });
      expect(res.withdrawal).toMatchObject({ status: WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED });
      expect((await balancesOf(t.client, a)).USD).toEqual({ available: '3000', held: '0' });
      const second = (await withdraw(a, '10', pod)).withdrawal!;
      await t.wallet.workers.processPayouts();
      expect(await grpcError(t.client.cancelWithdrawal({ agentId: a, withdrawalId: second.withdrawalId, idempotencyKey: key() }))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
        details: { current: 'processing', wanted: 'cancelled' },
      });
    });

    it('should require MAINNET_ATTESTED', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC);
      const pod = await destination(a);
      expect(await grpcError(withdraw(a, '1', pod))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'identity_level_insufficient',
        details: { required: 'MAINNET_ATTESTED', current: 'MAINNET_BASIC' },
      });
    });

    it('should enforce the daily limit per level, giving back cancelled amounts', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED, '3000');
      const pod = await destination(a);
      const big = (await withdraw(a, '900', pod)).withdrawal!;
      const err = await grpcError(withdraw(a, '100.000001', pod));
      expect(err).toMatchObject({ grpcCode: status.RESOURCE_EXHAUSTED, code: 'withdrawal_limit_exceeded', details: expect.objectContaining({ limit: '1000', used_today: '900' }) });
      expect(err.details!['resets_at']).toMatch(/T00:00:00.000Z$/);
      await withdraw(a, '100', pod);
      await t.client.cancelWithdrawal({ agentId: a, withdrawalId: big.withdrawalId, idempotencyKey: key() });
      await withdraw(a, '900', pod);
      expect((await balancesOf(t.client, a)).USD).toEqual({ available: '2000', held: '1000' });

      const inst = await newAgent(IdentityLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL, '6000');
      const instPod = await destination(inst);
      await withdraw(inst, '5000', instPod);
      expect(await grpcError(withdraw(inst, '0.000001', instPod))).toMatchObject({ code: 'withdrawal_limit_exceeded', details: expect.objectContaining({ limit: '5000' }) });
    });

    it('should refuse a withdrawal over the balance and to an unknown or foreign destination', async () => {
      const a = await newAgent(IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED, '50');
      const pod = await destination(a);
      expect(await grpcError(withdraw(a, '51', pod))).toMatchObject({ code: 'insufficient_funds', details: { currency: 'USD', available: '50', required: '51' } });
      expect(await grpcError(withdraw(a, '1', 'pod_nope'))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'payout_destination_not_found' });
      const other = await newAgent();
      expect(await grpcError(withdraw(other, '1', pod))).toMatchObject({ code: 'payout_destination_not_found' });
      expect(await grpcError(t.client.getWithdrawal({ agentId: other, withdrawalId: 'wdr_nope' }))).toMatchObject({ code: 'withdrawal_not_found' });
    });

    it('should block new withdrawals and pause the processor under the withdrawals kill switch', async () => {
      const a = await newAgent();
      const pod = await destination(a);
      const pending = (await withdraw(a, '5', pod)).withdrawal!;
      await t.client.setControls({ controls: { readOnly: false, killSwitches: ['withdrawals'] }, reason: 'incident' });
      try {
        expect(await grpcError(withdraw(a, '5', pod))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'kill_switch:withdrawals' });
        expect(await t.wallet.workers.processPayouts()).toBe(0);
        expect((await t.client.getWithdrawal({ agentId: a, withdrawalId: pending.withdrawalId })).withdrawal!.status).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED);
        const cancelled = await t.client.cancelWithdrawal({ agentId: a, withdrawalId: pending.withdrawalId, idempotencyKey: key() });
        expect(cancelled.withdrawal!.status).toBe(WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED);
      } finally {
        await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'resolved' });
      }
      await withdraw(a, '5', pod);
    });
  });
});
