import { status } from '@grpc/grpc-js';
import { walletV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { HoldStatus } = walletV1;

describe('wallet-ledger gRPC: holds', () => {
  let t: TestWallet;
  // The service's clock runs `offsetMs` ahead of real time, so expiries pass without waiting.
  let offsetMs = 0;
  const payer = agentId('payer');
  const payee = agentId('payee');

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_holds', agents: [{ agentId: payer }, { agentId: payee }], clock: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newPayer(amount = '100'): Promise<string> {
    const a = agentId('holder');
    t.identity.put({ agentId: a });
    await fund(t.client, a, amount);
    return a;
  }

  const hold = (agent: string, amount: string, extra: Partial<walletV1.CreateHoldRequest> = {}) =>
    t.client.createHold({ agentId: agent, amount, currency: 'CREDIT', idempotencyKey: key(), ...extra });

  it('should move funds from available to held and emit hold.created', async () => {
    const a = await newPayer();
    const expiresAt = new Date(Date.now() + 3_600_000);
    const res = await hold(a, '40', { reference: 'ctr_1', expiresAt });
    expect(res.hold).toEqual({
      holdId: expect.stringMatching(/^hld_/),
      agentId: a,
      amount: '40',
      currency: 'CREDIT',
      status: HoldStatus.HOLD_STATUS_ACTIVE,
      expiresAt,
      reference: 'ctr_1',
      consumedAmount: undefined,
      releasedAmount: undefined,
      consumedToAgentId: undefined,
      journalEntryIds: [expect.stringMatching(/^jrn_/)],
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      controller: 'agent',
    });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '60', held: '40' } });
    expect((await t.client.getBalance({ agentId: a })).balances[0].total).toBe('100');
    expect((await t.client.getHold({ agentId: a, holdId: res.hold!.holdId })).hold).toEqual(res.hold);
    expect((await outboxOf(t.sql, a)).map((e) => e.type)).toEqual(['exchange.wallet.faucet.granted', 'exchange.wallet.hold.created']);
  });

  it('should refuse a hold beyond the available balance, a past expiry and a bad amount', async () => {
    const a = await newPayer('10');
    expect(await grpcError(hold(a, '10.000001'))).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
    expect(await grpcError(hold(a, '1', { expiresAt: new Date(Date.now() - 1000) }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'invalid_expires_at',
    });
    expect(await grpcError(hold(a, 'abc'))).toMatchObject({ code: 'invalid_amount' });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '10', held: '0' } });
  });

  it('should release a hold back to available, once', async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '30');
    const res = await t.client.releaseHold({ agentId: a, holdId: h!.holdId, idempotencyKey: key() });
    expect(res.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_RELEASED, releasedAmount: '30', journalEntryIds: [h!.journalEntryIds[0], expect.any(String)] });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '100', held: '0' } });
    const again = await grpcError(t.client.releaseHold({ agentId: a, holdId: h!.holdId, idempotencyKey: key() }));
    expect(again).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state', details: { current: 'released', wanted: 'released' } });
    const consume = await grpcError(t.client.consumeHold({ agentId: a, holdId: h!.holdId, toAgentId: payee, idempotencyKey: key() }));
    expect(consume).toMatchObject({ code: 'invalid_state', details: { current: 'released', wanted: 'consumed' } });
    expect((await outboxOf(t.sql, a)).map((e) => e.type).slice(1)).toEqual(['exchange.wallet.hold.created', 'exchange.wallet.hold.released']);
  });

  it('should consume part of a hold to the recipient and release the rest', async () => {
    const a = await newPayer();
    const b = agentId('recipient');
    t.identity.put({ agentId: b });
    const { hold: h } = await hold(a, '30');
    const res = await t.client.consumeHold({ agentId: a, holdId: h!.holdId, toAgentId: b, amount: '12.25', idempotencyKey: key() });
    expect(res.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_CONSUMED, consumedAmount: '12.25', releasedAmount: '17.75', consumedToAgentId: b });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '87.75', held: '0' } });
    expect(await balancesOf(t.client, b)).toEqual({ CREDIT: { available: '12.25', held: '0' } });
    const [event] = (await outboxOf(t.sql, a)).filter((e) => e.type === 'exchange.wallet.hold.consumed');
    expect(event.data.hold).toMatchObject({ holdId: h!.holdId, consumedAmount: '12.25', status: 'HOLD_STATUS_CONSUMED' });
  });

  it('should consume the whole hold when no amount is given', async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '30');
    const res = await t.client.consumeHold({ agentId: a, holdId: h!.holdId, toAgentId: payee, idempotencyKey: key() });
    expect(res.hold).toMatchObject({ consumedAmount: '30', releasedAmount: '0' });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '70', held: '0' } });
  });

  it('should refuse consuming more than held (stored with the key) and to oneself', async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '30');
    const req = { agentId: a, holdId: h!.holdId, toAgentId: payee, amount: '30.000001', idempotencyKey: key() };
    const err = await grpcError(t.client.consumeHold(req));
    expect(err).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'amount_exceeds_hold', details: { amount: '30.000001', held: '30' } });
    expect(await grpcError(t.client.consumeHold(req))).toEqual({ ...err, replayed: true });
    expect(await grpcError(t.client.consumeHold({ ...req, toAgentId: a, amount: '1', idempotencyKey: key() }))).toMatchObject({ code: 'self_transfer' });
    expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '70', held: '30' } });
  });

  it("should treat another agent's hold and an unknown hold as not found", async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '1');
    // One call at a time: a rejection created before it is awaited would be reported as unhandled.
    for (const call of [
      () => t.client.getHold({ agentId: payer, holdId: h!.holdId }),
      () => t.client.releaseHold({ agentId: payer, holdId: h!.holdId, idempotencyKey: key() }),
      () => t.client.getHold({ agentId: a, holdId: 'hld_nope' }),
    ]) {
      expect(await grpcError(call())).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'hold_not_found' });
    }
  });

  it('should replay a release with its original response after the hold moved on', async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '5');
    const req = { agentId: a, holdId: h!.holdId, idempotencyKey: key() };
    const first = await t.client.releaseHold(req);
    expect(await t.client.releaseHold(req)).toEqual({ ...first, idempotentReplayed: true });
  });

  it('should let exactly one of racing release and consume win', async () => {
    const a = await newPayer();
    const { hold: h } = await hold(a, '50');
    const results = await Promise.allSettled([
      t.client.releaseHold({ agentId: a, holdId: h!.holdId, idempotencyKey: key() }),
      t.client.consumeHold({ agentId: a, holdId: h!.holdId, toAgentId: payee, idempotencyKey: key() }),
      t.client.releaseHold({ agentId: a, holdId: h!.holdId, idempotencyKey: key() }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const { available, held } = (await balancesOf(t.client, a)).CREDIT;
    expect(held).toBe('0');
    expect(['100', '50']).toContain(available);
    const resolutions = (await outboxOf(t.sql, a)).filter((e) => e.type === 'exchange.wallet.hold.released' || e.type === 'exchange.wallet.hold.consumed');
    expect(resolutions).toHaveLength(1);
  });

  describe('expiry', () => {
    it('should expire due holds in a sweep (funds back, one entry and event each) and leave others', async () => {
      const a = await newPayer();
      const soon = await hold(a, '10', { expiresAt: new Date(Date.now() + 60_000) });
      const later = await hold(a, '20', { expiresAt: new Date(Date.now() + 3_600_000) });
      const never = await hold(a, '30');
      expect(await t.wallet.workers.sweepHolds()).toBe(0);
      offsetMs = 120_000;
      try {
        expect(await t.wallet.workers.sweepHolds()).toBeGreaterThanOrEqual(1);
        expect(await t.wallet.workers.sweepHolds()).toBe(0);
      } finally {
        offsetMs = 0;
      }
      const expired = (await t.client.getHold({ agentId: a, holdId: soon.hold!.holdId })).hold!;
      expect(expired).toMatchObject({ status: HoldStatus.HOLD_STATUS_EXPIRED, releasedAmount: '10' });
      expect(expired.journalEntryIds).toHaveLength(2);
      for (const h of [later, never]) {
        expect((await t.client.getHold({ agentId: a, holdId: h.hold!.holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_ACTIVE);
      }
      expect(await balancesOf(t.client, a)).toEqual({ CREDIT: { available: '50', held: '50' } });
      const events = (await outboxOf(t.sql, a)).filter((e) => e.type === 'exchange.wallet.hold.expired');
      expect(events).toEqual([{ type: 'exchange.wallet.hold.expired', data: { hold: expect.objectContaining({ holdId: soon.hold!.holdId }) } }]);
      expect(await grpcError(t.client.releaseHold({ agentId: a, holdId: soon.hold!.holdId, idempotencyKey: key() }))).toMatchObject({
        code: 'invalid_state',
        details: { current: 'expired', wanted: 'released' },
      });
    });
  });
});
