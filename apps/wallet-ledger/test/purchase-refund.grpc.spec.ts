import { status } from '@grpc/grpc-js';
import { walletV1 } from '@exchange/proto';
import { receiptJson, verifyReceiptJson } from '../src/domain/receipt';
import { ledgerReport } from '../src/ledger/ledger.repo';
import { fromProtoReceipt } from '../src/receipts/receipts.mapper';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { ReceiptKind } = walletV1;

// Commerce post-purchase refunds (issue 16): the merchant's settlement account pays part or all
// of a commerce settlement back to the buyer, never more in all than the settlement paid it.

describe('wallet-ledger gRPC: RefundPurchase', () => {
  let t: TestWallet;
  let domainSeq = 0;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_purchase_refund' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const merchant = () => `shop-${++domainSeq}.sandbox-merchant.local`;

  /** A buyer with 100, a commerce hold of `amount`, settled to `domain` with `fee`. */
  async function purchase(domain: string, amount = '40', fee = '0'): Promise<{ buyer: string; receipt: walletV1.Receipt }> {
    const buyer = agentId('buyer');
    t.identity.put({ agentId: buyer });
    await fund(t.client, buyer, '100');
    const { hold } = await t.client.createHold({ agentId: buyer, amount, currency: 'CREDIT', reference: 'pur_x', idempotencyKey: key(), controller: 'commerce' });
    const { receipt } = await t.client.settle({
      agentId: buyer,
      holdId: hold!.holdId,
      contractId: `pur_${domainSeq}`,
      payeeAgentId: '',
      payeeMerchantDomain: domain,
      controller: 'commerce',
      fee,
      idempotencyKey: key(),
    });
    return { buyer, receipt: receipt! };
  }

  const refundOf = (buyer: string, receiptId: string, extra: Partial<walletV1.RefundPurchaseRequest> = {}): walletV1.RefundPurchaseRequest => ({
    agentId: buyer,
    receiptId,
    amount: '10',
    reason: 'arrived damaged',
    idempotencyKey: key(),
    controller: 'commerce',
    reference: 'case_1',
    ...extra,
  });

  async function merchantBalance(domain: string): Promise<string | undefined> {
    const { rows } = await t.sql.query(`SELECT balance::text FROM accounts WHERE account_id = $1`, [`merchant:${domain}/CREDIT/merchant_settlement`]);
    return rows[0]?.balance;
  }

  async function ledgerOk(): Promise<void> {
    expect(await t.client.checkLedger({})).toMatchObject({ ok: true, discrepancies: [], globalSums: { CREDIT: '0' } });
  }

  it("should pay the buyer back from the merchant's account with one entry and a signed purchase_refund receipt", async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40');
    const res = await t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '12.5' }));
    const r = res.receipt!;
    expect(res).toMatchObject({ idempotentReplayed: false, refundedTotal: '12.5', settledAmount: '40' });
    expect(r).toMatchObject({
      kind: ReceiptKind.RECEIPT_KIND_PURCHASE_REFUND,
      contractId: settled.contractId,
      holdId: settled.holdId,
      payer: `merchant:${domain}`,
      payee: buyer,
      amount: '12.5',
      fee: '0',
      refundedAmount: '0',
      currency: 'CREDIT',
      refundsReceiptId: settled.receiptId,
      reason: 'arrived damaged',
      signerPublicKey: t.signerPublicKey,
    });
    expect(r.correctsReceiptId).toBeUndefined();
    expect(r.journalEntryIds).toHaveLength(1);
    const json = receiptJson(fromProtoReceipt(r));
    expect(json).toMatchObject({ refunds_receipt_id: settled.receiptId, reason: 'arrived damaged' });
    expect(verifyReceiptJson(json)).toBe(true);
    expect(verifyReceiptJson({ ...json, refunds_receipt_id: 'rcpt_other' })).toBe(false);
    expect((await t.client.getReceipt({ receiptId: r.receiptId, contractId: '' })).receipt).toEqual(r);

    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '72.5', held: '0' } });
    expect(await merchantBalance(domain)).toBe('27500000');
    const { rows: entry } = await t.sql.query(
      `SELECT j.kind, j.idempotency_scope, r.reference, r.refunds_receipt_id FROM receipts r JOIN journal_entries j ON j.entry_id = r.journal_entry_ids[1] WHERE r.receipt_id = $1`,
      [r.receiptId],
    );
    expect(entry).toEqual([{ kind: 'purchase_refund', idempotency_scope: buyer, reference: 'case_1', refunds_receipt_id: settled.receiptId }]);
    const events = await outboxOf(t.sql, buyer);
    expect(events.at(-1)).toMatchObject({
      type: 'exchange.wallet.receipt.issued',
      data: { receipt: { kind: 'RECEIPT_KIND_PURCHASE_REFUND', refundsReceiptId: settled.receiptId }, hold: { holdId: settled.holdId } },
    });
    await ledgerOk();
  });

  it('should let partial refunds add up to exactly what the merchant was paid (amount - fee), then refuse and change nothing', async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40', '1');
    // Another purchase keeps the merchant account well funded: the cap, not the balance, refuses.
    await purchase(domain, '50');
    expect(await t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '20' }))).toMatchObject({ refundedTotal: '20', settledAmount: '39' });
    expect(await t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '19' }))).toMatchObject({ refundedTotal: '39', settledAmount: '39' });
    const before = await outboxCount(t.sql);
    expect(await grpcError(t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '0.000001' })))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'refund_exceeds_paid',
      details: { paid: '39', refunded: '39', requested: '0.000001' },
    });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '99', held: '0' } });
    expect(await merchantBalance(domain)).toBe('50000000');
    await ledgerOk();
  });

  it('should serialize concurrent refunds of one receipt: exactly floor(paid / amount) accepted, never more than paid', async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '35');
    await purchase(domain, '90');
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '10' }))));
    const accepted = outcomes.filter((o) => o.status === 'fulfilled');
    expect(accepted).toHaveLength(3);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(await grpcError(Promise.reject(o.reason))).toMatchObject({ code: 'refund_exceeds_paid' });
    }
    const totals = accepted.map((o) => (o as PromiseFulfilledResult<walletV1.RefundPurchaseResponse>).value.refundedTotal).sort();
    expect(totals).toEqual(['10', '20', '30']);
    const { rows } = await t.sql.query(`SELECT coalesce(sum(amount), 0)::text AS total, count(*)::int AS n FROM receipts WHERE refunds_receipt_id = $1`, [
      settled.receiptId,
    ]);
    expect(rows[0]).toEqual({ total: '30000000', n: 3 });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '95', held: '0' } });
    await ledgerOk();
  });

  it('should replay a refund with its key and refuse the key with another body', async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40');
    const req = refundOf(buyer, settled.receiptId);
    const first = await t.client.refundPurchase(req);
    // A later refund moves the total on; the replay still answers the first response.
    await t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '5' }));
    expect(await t.client.refundPurchase(req)).toEqual({ ...first, idempotentReplayed: true });
    expect(await grpcError(t.client.refundPurchase({ ...req, amount: '11' }))).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'idempotency_key_reused' });
    expect(await grpcError(t.client.refundPurchase({ ...req, reference: 'case_2' }))).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '75', held: '0' } });
    // A refusal is stored with its key too: the same request gets the same answer.
    const over = refundOf(buyer, settled.receiptId, { amount: '26' });
    expect(await grpcError(t.client.refundPurchase(over))).toMatchObject({ code: 'refund_exceeds_paid' });
    expect(await grpcError(t.client.refundPurchase(over))).toMatchObject({ code: 'refund_exceeds_paid' });
  });

  it.each<[string, Partial<walletV1.RefundPurchaseRequest>, number, string]>([
    ['controller market', { controller: 'market' }, status.PERMISSION_DENIED, 'forbidden'],
    ['no controller', { controller: '' }, status.PERMISSION_DENIED, 'forbidden'],
    ['an unknown controller', { controller: 'Commerce' }, status.INVALID_ARGUMENT, 'validation_failed'],
    ['a zero amount', { amount: '0' }, status.INVALID_ARGUMENT, 'invalid_amount'],
    ['a negative amount', { amount: '-1' }, status.INVALID_ARGUMENT, 'invalid_amount'],
    ['a malformed amount', { amount: '1e3' }, status.INVALID_ARGUMENT, 'invalid_amount'],
    ['no reason', { reason: '' }, status.INVALID_ARGUMENT, 'validation_failed'],
    ['no receipt id', { receiptId: '' }, status.INVALID_ARGUMENT, 'validation_failed'],
    ['an over-long reference', { reference: 'c'.repeat(256) }, status.INVALID_ARGUMENT, 'validation_failed'],
    ['no idempotency key', { idempotencyKey: '' }, status.INVALID_ARGUMENT, 'idempotency_key_required'],
    ['an unknown receipt', { receiptId: 'rcpt_nope' }, status.NOT_FOUND, 'receipt_not_found'],
  ])('should refuse %s, changing nothing', async (_name, change, grpcCode, code) => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40');
    const before = await outboxCount(t.sql);
    expect(await grpcError(t.client.refundPurchase(refundOf(buyer, settled.receiptId, change)))).toMatchObject({ grpcCode, code });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '60', held: '0' } });
    expect(await merchantBalance(domain)).toBe('40000000');
  });

  it("should report another buyer's receipt as missing", async () => {
    const { receipt: settled } = await purchase(merchant(), '40');
    const other = agentId('other');
    t.identity.put({ agentId: other });
    expect(await grpcError(t.client.refundPurchase(refundOf(other, settled.receiptId)))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'receipt_not_found' });
  });

  it('should refuse receipts that are not a commerce settlement to a merchant', async () => {
    const buyer = agentId('buyer');
    const seller = agentId('seller');
    t.identity.put({ agentId: buyer });
    t.identity.put({ agentId: seller });
    await fund(t.client, buyer, '100');
    const hold = async (controller: string) =>
      (await t.client.createHold({ agentId: buyer, amount: '10', currency: 'CREDIT', idempotencyKey: key(), controller })).hold!.holdId;
    const toAgent = await t.client.settle({ agentId: buyer, holdId: await hold('commerce'), contractId: 'c', payeeAgentId: seller, controller: 'commerce', idempotencyKey: key() });
    const market = await t.client.settle({ agentId: buyer, holdId: await hold('market'), contractId: 'c', payeeAgentId: seller, idempotencyKey: key() });
    const refunded = await t.client.refund({ agentId: buyer, holdId: await hold('commerce'), contractId: 'c', controller: 'commerce', idempotencyKey: key() });
    for (const r of [toAgent, market, refunded]) {
      expect(await grpcError(t.client.refundPurchase(refundOf(buyer, r.receipt!.receiptId, { amount: '1' })))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'invalid_state',
      });
    }
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '80', held: '0' } });
    // Nor a purchase refund receipt itself (its payer is the merchant, so not this buyer's).
    const domain = merchant();
    const p = await purchase(domain, '40');
    const { receipt } = await t.client.refundPurchase(refundOf(p.buyer, p.receipt.receiptId));
    expect(await grpcError(t.client.refundPurchase(refundOf(p.buyer, receipt!.receiptId, { amount: '1' })))).toMatchObject({ code: 'receipt_not_found' });
  });

  it('should refuse a corrected settlement, and a correction reverses only what refunds left', async () => {
    const domain = merchant();
    const corrected = await purchase(domain, '40');
    await t.client.correctSettlement({ agentId: corrected.buyer, receiptId: corrected.receipt.receiptId, reason: 'wrong merchant', idempotencyKey: key() });
    expect(await grpcError(t.client.refundPurchase(refundOf(corrected.buyer, corrected.receipt.receiptId)))).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: 'invalid_state',
      details: { current: 'corrected' },
    });
    expect(await balancesOf(t.client, corrected.buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });

    // Refunded 15 of 40 (fee 2: the merchant got 38), then corrected: the buyer gets 25 more, not 40.
    const partly = await purchase(domain, '40', '2');
    await t.client.refundPurchase(refundOf(partly.buyer, partly.receipt.receiptId, { amount: '15' }));
    const correction = await t.client.correctSettlement({ agentId: partly.buyer, receiptId: partly.receipt.receiptId, reason: 'never shipped', idempotencyKey: key() });
    expect(correction.receipt).toMatchObject({ kind: ReceiptKind.RECEIPT_KIND_CORRECTION, amount: '25', fee: '2' });
    expect(await balancesOf(t.client, partly.buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });
    expect(await merchantBalance(domain)).toBe('0');
    await ledgerOk();
  });

  it("should refuse with insufficient_funds when the merchant's account was paid out, changing nothing", async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40');
    const account = `merchant:${domain}/CREDIT/merchant_settlement`;
    // The merchant's account paid out elsewhere (no payout path exists yet: simulated, restored after).
    await t.sql.query(`UPDATE accounts SET balance = balance - 35000000 WHERE account_id = $1`, [account]);
    try {
      expect(await grpcError(t.client.refundPurchase(refundOf(buyer, settled.receiptId)))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'insufficient_funds',
        details: { available: '5', required: '10' },
      });
      expect(await merchantBalance(domain)).toBe('5000000');
      expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '60', held: '0' } });
    } finally {
      await t.sql.query(`UPDATE accounts SET balance = balance + 35000000 WHERE account_id = $1`, [account]);
    }
    await ledgerOk();
  });

  // The damage stays in an open transaction (rolled back), so the check's queries run inside it.
  it('should have CheckLedger report refunds that add up to more than the settlement paid', async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40', '1');
    const { receipt } = await t.client.refundPurchase(refundOf(buyer, settled.receiptId, { amount: '30' }));
    const client = await t.sql.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO receipts (receipt_id, kind, contract_id, hold_id, payer, payee, amount, fee, refunded_amount, currency, settled_at, signature,
                               signer_public_key, refunds_receipt_id)
         SELECT 'rcpt_forged', kind, contract_id, hold_id, payer, payee, amount, fee, refunded_amount, currency, settled_at, signature,
                signer_public_key, refunds_receipt_id
           FROM receipts WHERE receipt_id = $1`,
        [receipt!.receiptId],
      );
      const report = await ledgerReport(client, new Date());
      expect(report.discrepancies).toEqual([
        { kind: 'purchase_refunds_exceed_paid', subject: settled.receiptId, expected: '<= 39', actual: '60', detail: expect.any(String) },
      ]);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    await ledgerOk();
  });

  it('should refund a frozen buyer too, but not in read-only mode', async () => {
    const domain = merchant();
    const { buyer, receipt: settled } = await purchase(domain, '40');
    t.identity.put({ agentId: buyer, frozen: true });
    expect(await t.client.refundPurchase(refundOf(buyer, settled.receiptId))).toMatchObject({ refundedTotal: '10' });
    await t.client.setControls({ controls: { readOnly: true, killSwitches: [] }, reason: 'test' });
    try {
      expect(await grpcError(t.client.refundPurchase(refundOf(buyer, settled.receiptId)))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'read_only' });
    } finally {
      await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'test over' });
    }
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '70', held: '0' } });
  });
});
