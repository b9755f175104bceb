import { status } from '@grpc/grpc-js';
import { verifyCanonical } from '@exchange/crypto';
import { walletV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { HoldStatus, ReceiptKind } = walletV1;

/** The receipt's JSON form as the gateway returns it (README.md "Receipts"), without `signature`. */
function signedPayload(r: walletV1.Receipt): Record<string, unknown> {
  return {
    receipt_id: r.receiptId,
    kind: r.kind === ReceiptKind.RECEIPT_KIND_SETTLEMENT ? 'settlement' : 'refund',
    contract_id: r.contractId,
    hold_id: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: r.amount,
    fee: r.fee,
    refunded_amount: r.refundedAmount,
    currency: r.currency,
    journal_entry_ids: r.journalEntryIds,
    settled_at: r.settledAt!.toISOString(),
    signer_public_key: r.signerPublicKey,
  };
}

describe('wallet-ledger gRPC: settlement, refund and receipts', () => {
  let t: TestWallet;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_settlement' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function buyerWithHold(amount = '100'): Promise<{ buyer: string; seller: string; holdId: string }> {
    const buyer = agentId('buyer');
    const seller = agentId('seller');
    t.identity.put({ agentId: buyer });
    t.identity.put({ agentId: seller });
    await fund(t.client, buyer, '150');
    const { hold } = await t.client.createHold({ agentId: buyer, amount, currency: 'CREDIT', reference: 'ctr_x', idempotencyKey: key(), controller: 'market' });
    return { buyer, seller, holdId: hold!.holdId };
  }

  it('should settle part of a hold with a fee, refund the rest and sign the receipt', async () => {
    const { buyer, seller, holdId } = await buyerWithHold('100');
    const res = await t.client.settle({ agentId: buyer, holdId, contractId: 'ctr_1', payeeAgentId: seller, amount: '60', fee: '1.5', idempotencyKey: key() });
    const r = res.receipt!;
    expect(r).toMatchObject({
      receiptId: expect.stringMatching(/^rcpt_/),
      kind: ReceiptKind.RECEIPT_KIND_SETTLEMENT,
      contractId: 'ctr_1',
      holdId,
      payer: buyer,
      payee: seller,
      amount: '60',
      fee: '1.5',
      refundedAmount: '40',
      currency: 'CREDIT',
      signerPublicKey: t.signerPublicKey,
    });
    expect(r.journalEntryIds).toEqual(res.hold!.journalEntryIds);
    expect(res.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_CONSUMED, consumedAmount: '60', releasedAmount: '40', consumedToAgentId: seller });
    expect(verifyCanonical(signedPayload(r), r.signature, t.signerPublicKey)).toBe(true);
    expect(verifyCanonical({ ...signedPayload(r), amount: '61' }, r.signature, t.signerPublicKey)).toBe(false);

    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '0' } });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '58.5', held: '0' } });
    const { rows } = await t.sql.query(`SELECT balance::text FROM accounts WHERE account_id = 'system/CREDIT/fees'`);
    expect(rows[0].balance).toBe('1500000');
    const settledEvents = await outboxOf(t.sql, buyer);
    expect(settledEvents.map((e) => e.type).slice(-2)).toEqual(['exchange.wallet.hold.created', 'exchange.wallet.receipt.issued']);
    expect(settledEvents.at(-1)!.data).toMatchObject({ receipt: { receiptId: r.receiptId, fee: '1.5' }, hold: { status: 'HOLD_STATUS_CONSUMED' } });

    expect((await t.client.getReceipt({ receiptId: r.receiptId, contractId: '' })).receipt).toEqual(r);
    expect((await t.client.getReceipt({ receiptId: '', contractId: 'ctr_1' })).receipt).toEqual(r);
  });

  it('should settle the whole hold without a fee by default', async () => {
    const { buyer, seller, holdId } = await buyerWithHold('30');
    const res = await t.client.settle({ agentId: buyer, holdId, contractId: 'ctr_2', payeeAgentId: seller, idempotencyKey: key() });
    expect(res.receipt).toMatchObject({ amount: '30', fee: '0', refundedAmount: '0' });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '30', held: '0' } });
  });

  it('should refund the whole hold with a signed refund receipt', async () => {
    const { buyer, holdId } = await buyerWithHold('100');
    const res = await t.client.refund({ agentId: buyer, holdId, contractId: 'ctr_3', idempotencyKey: key() });
    expect(res.receipt).toMatchObject({ kind: ReceiptKind.RECEIPT_KIND_REFUND, payer: buyer, payee: buyer, amount: '100', fee: '0', refundedAmount: '100' });
    expect(res.hold!.status).toBe(HoldStatus.HOLD_STATUS_RELEASED);
    expect(verifyCanonical(signedPayload(res.receipt!), res.receipt!.signature, t.signerPublicKey)).toBe(true);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '150', held: '0' } });
    const refundEvents = await outboxOf(t.sql, buyer);
    expect(refundEvents.map((e) => e.type).slice(-2)).toEqual(['exchange.wallet.hold.created', 'exchange.wallet.receipt.issued']);
    expect(refundEvents.at(-1)!.data).toMatchObject({ hold: { status: 'HOLD_STATUS_RELEASED' } });
  });

  it('should replay a settlement with the same receipt and refuse settling twice', async () => {
    const { buyer, seller, holdId } = await buyerWithHold('10');
    const req = { agentId: buyer, holdId, contractId: 'ctr_4', payeeAgentId: seller, idempotencyKey: key() };
    const first = await t.client.settle(req);
    expect(await t.client.settle(req)).toEqual({ ...first, idempotentReplayed: true });
    expect(await grpcError(t.client.refund({ agentId: buyer, holdId, contractId: 'ctr_4', idempotencyKey: key() }))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'invalid_state',
      details: { current: 'consumed', wanted: 'released' },
    });
  });

  it.each([
    [{ amount: '10.000001' }, 'amount_exceeds_hold'],
    [{ amount: '5', fee: '5.000001' }, 'invalid_amount'],
    [{ fee: '-1' }, 'invalid_amount'],
    [{ contractId: '' }, 'validation_failed'],
  ])('should refuse %j with %s', async (change, code) => {
    const { buyer, seller, holdId } = await buyerWithHold('10');
    const req = { agentId: buyer, holdId, contractId: 'ctr_5', payeeAgentId: seller, idempotencyKey: key(), ...change };
    expect(await grpcError(t.client.settle(req))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '140', held: '10' } });
  });

  it('should obey the settlements kill switch for Settle only: a refund gives the money back', async () => {
    const { buyer, seller, holdId } = await buyerWithHold('10');
    await t.client.setControls({ controls: { readOnly: false, killSwitches: ['settlements'] }, reason: 'test' });
    try {
      expect(await grpcError(t.client.settle({ agentId: buyer, holdId, contractId: 'c', payeeAgentId: seller, idempotencyKey: key() }))).toMatchObject({
        grpcCode: status.UNAVAILABLE,
        code: 'kill_switch:settlements',
      });
      const refunded = await t.client.refund({ agentId: buyer, holdId, contractId: 'c', idempotencyKey: key() });
      expect(refunded.hold!.status).toBe(HoldStatus.HOLD_STATUS_RELEASED);
      expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '150', held: '0' } });
    } finally {
      await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'test over' });
    }
  });

  it('should answer receipt_not_found and want exactly one lookup key', async () => {
    expect(await grpcError(t.client.getReceipt({ receiptId: 'rcpt_nope', contractId: '' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'receipt_not_found' });
    expect(await grpcError(t.client.getReceipt({ receiptId: '', contractId: '' }))).toMatchObject({ code: 'validation_failed' });
    expect(await grpcError(t.client.getReceipt({ receiptId: 'a', contractId: 'b' }))).toMatchObject({ code: 'validation_failed' });
  });
});
