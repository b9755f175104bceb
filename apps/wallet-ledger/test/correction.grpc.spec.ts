import { status } from '@grpc/grpc-js';
import { verifyCanonical } from '@exchange/crypto';
import { walletV1 } from '@exchange/proto';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, outboxOfType, startTestWallet, type TestWallet } from './wallet-harness';

const { ReceiptKind } = walletV1;

/** The signed JSON form of a correction receipt (README.md "Receipts"), without `signature`. */
function correctionPayload(r: walletV1.Receipt): Record<string, unknown> {
  return {
    receipt_id: r.receiptId,
    kind: 'correction',
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
    corrects_receipt_id: r.correctsReceiptId,
    reason: r.reason,
  };
}

describe('wallet-ledger gRPC: CorrectSettlement (erroneous clear)', () => {
  let t: TestWallet;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_correction' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const feesBalance = async (): Promise<bigint> => {
    const { rows } = await t.sql.query(`SELECT balance::text AS b FROM accounts WHERE account_id = 'system/CREDIT/fees'`);
    return BigInt(rows[0]?.b ?? '0');
  };

  /** buyer funded 150, hold 100, settled 60 with fee 1.5 to the seller (40 back to the buyer). */
  async function settled(): Promise<{ buyer: string; seller: string; receipt: walletV1.Receipt }> {
    const buyer = agentId('buyer');
    const seller = agentId('seller');
    t.identity.put({ agentId: buyer });
    t.identity.put({ agentId: seller });
    await fund(t.client, buyer, '150');
    const { hold } = await t.client.createHold({ agentId: buyer, amount: '100', currency: 'CREDIT', reference: 'ctr_c', idempotencyKey: key(), controller: 'market' });
    const res = await t.client.settle({ agentId: buyer, holdId: hold!.holdId, contractId: 'ctr_c', payeeAgentId: seller, amount: '60', fee: '1.5', idempotencyKey: key() });
    return { buyer, seller, receipt: res.receipt! };
  }

  it('should reverse the settlement in one entry, sign a correction receipt and emit one event', async () => {
    const { buyer, seller, receipt } = await settled();
    const feesBefore = await feesBalance();
    const eventsBefore = await outboxCount(t.sql);
    const k = key();
    const res = await t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'paid the wrong seller', idempotencyKey: k });
    const r = res.receipt!;
    expect(res.idempotentReplayed).toBe(false);
    expect(r).toMatchObject({
      receiptId: expect.stringMatching(/^rcpt_/),
      kind: ReceiptKind.RECEIPT_KIND_CORRECTION,
      contractId: 'ctr_c',
      holdId: receipt.holdId,
      payer: buyer,
      payee: seller,
      amount: '60',
      fee: '1.5',
      refundedAmount: '0',
      currency: 'CREDIT',
      correctsReceiptId: receipt.receiptId,
      reason: 'paid the wrong seller',
    });
    expect(r.journalEntryIds).toHaveLength(1);
    expect(verifyCanonical(correctionPayload(r), r.signature, t.signerPublicKey)).toBe(true);
    expect(verifyCanonical({ ...correctionPayload(r), reason: 'other' }, r.signature, t.signerPublicKey)).toBe(false);

    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '150', held: '0' } });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '0', held: '0' } });
    expect(await feesBalance()).toBe(feesBefore - 1_500_000n);
    const { rows: postings } = await t.sql.query(
      `SELECT account_id, amount::text FROM postings WHERE entry_id = $1 ORDER BY account_id`,
      [r.journalEntryIds[0]],
    );
    expect(postings).toEqual(
      expect.arrayContaining([
        { account_id: `${buyer}/CREDIT/available`, amount: '60000000' },
        { account_id: `${seller}/CREDIT/available`, amount: '-58500000' },
        { account_id: 'system/CREDIT/fees', amount: '-1500000' },
      ]),
    );
    expect(postings).toHaveLength(3);

    expect(await outboxCount(t.sql)).toBe(eventsBefore + 1);
    const issued = await outboxOfType(t.sql, 'exchange.wallet.receipt.issued');
    expect(issued.at(-1)!.data).toMatchObject({ receipt: { receiptId: r.receiptId, kind: 'RECEIPT_KIND_CORRECTION', correctsReceiptId: receipt.receiptId } });
    expect((await t.client.getReceipt({ receiptId: r.receiptId, contractId: '' })).receipt).toEqual(r);
    expect((await t.client.checkLedger({})).ok).toBe(true);

    // Same key, same request: the stored answer, nothing moves again.
    const again = await t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'paid the wrong seller', idempotencyKey: k });
    expect(again).toEqual({ receipt: r, idempotentReplayed: true });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '150', held: '0' } });
    expect(await outboxCount(t.sql)).toBe(eventsBefore + 1);

    // Same key, another request → idempotency_key_reused.
    const reused = await grpcError(t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'something else', idempotencyKey: k }));
    expect(reused).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'idempotency_key_reused' });

    // Another key: once per receipt.
    const twice = await grpcError(t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'again', idempotencyKey: key() }));
    expect(twice).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state' });
    expect(twice.message).toContain('already corrected');
    expect(await outboxCount(t.sql)).toBe(eventsBefore + 1);
  });

  it('should refuse a refund receipt and a receipt of another payer', async () => {
    const buyer = agentId('buyer');
    t.identity.put({ agentId: buyer });
    await fund(t.client, buyer, '10');
    const { hold } = await t.client.createHold({ agentId: buyer, amount: '10', currency: 'CREDIT', reference: 'ctr_r', idempotencyKey: key(), controller: 'market' });
    const refund = await t.client.refund({ agentId: buyer, holdId: hold!.holdId, contractId: 'ctr_r', idempotencyKey: key() });
    const err = await grpcError(t.client.correctSettlement({ agentId: buyer, receiptId: refund.receipt!.receiptId, reason: 'r', idempotencyKey: key() }));
    expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state' });

    const { receipt } = await settled();
    const other = agentId('other');
    t.identity.put({ agentId: other });
    const notTheirs = await grpcError(t.client.correctSettlement({ agentId: other, receiptId: receipt.receiptId, reason: 'r', idempotencyKey: key() }));
    expect(notTheirs).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'receipt_not_found' });
    const missing = await grpcError(t.client.correctSettlement({ agentId: other, receiptId: 'rcpt_missing', reason: 'r', idempotencyKey: key() }));
    expect(missing).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'receipt_not_found' });
    const noReason = await grpcError(t.client.correctSettlement({ agentId: other, receiptId: receipt.receiptId, reason: '', idempotencyKey: key() }));
    expect(noReason).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'validation_failed' });
  });

  it('should refuse with insufficient_funds when the payee already spent it, change nothing and allow a later correction', async () => {
    const { buyer, seller, receipt } = await settled();
    const elsewhere = agentId('elsewhere');
    t.identity.put({ agentId: elsewhere });
    await t.client.transfer({ agentId: seller, toAgentId: elsewhere, amount: '50', currency: 'CREDIT', idempotencyKey: key() });
    const eventsBefore = await outboxCount(t.sql);
    const feesBefore = await feesBalance();
    const k = key();
    const short = await grpcError(t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'wrong', idempotencyKey: k }));
    expect(short).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: 'insufficient_funds' });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '0' } });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '8.5', held: '0' } });
    expect(await feesBalance()).toBe(feesBefore);
    expect(await outboxCount(t.sql)).toBe(eventsBefore);
    // The refusal is the key's stored answer.
    const replayed = await grpcError(t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'wrong', idempotencyKey: k }));
    expect(replayed).toMatchObject({ code: 'insufficient_funds' });

    await t.client.transfer({ agentId: elsewhere, toAgentId: seller, amount: '50', currency: 'CREDIT', idempotencyKey: key() });
    const ok = await t.client.correctSettlement({ agentId: buyer, receiptId: receipt.receiptId, reason: 'wrong', idempotencyKey: key() });
    expect(ok.receipt!.kind).toBe(ReceiptKind.RECEIPT_KIND_CORRECTION);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '150', held: '0' } });
    expect((await t.client.checkLedger({})).ok).toBe(true);
  });
});
