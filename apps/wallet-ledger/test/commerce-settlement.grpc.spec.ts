import { status } from '@grpc/grpc-js';
import { walletV1 } from '@exchange/proto';
import { receiptJson, verifyReceiptJson } from '../src/domain/receipt';
import { fromProtoReceipt } from '../src/receipts/receipts.mapper';
import { agentId, balancesOf, fund, grpcError, key, outboxCount, outboxOf, startTestWallet, type TestWallet } from './wallet-harness';

const { HoldStatus, ReceiptKind } = walletV1;

// Commerce purchases (issue 15): commerce holds the buyer's money (controller "commerce"), then
// Settle pays the merchant's settlement account ("merchant:<domain>", not an agent) or Refund
// gives it back. The market's path and commerce's never move each other's holds.

describe('wallet-ledger gRPC: commerce purchases settled to a merchant', () => {
  let t: TestWallet;
  let domainSeq = 0;

  beforeAll(async () => {
    t = await startTestWallet({ name: 'wallet_commerce' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh merchant domain per test (one database per file). */
  const merchant = () => `shop-${++domainSeq}.sandbox-merchant.local`;

  async function purchase(amount = '40', controller = 'commerce'): Promise<{ buyer: string; holdId: string }> {
    const buyer = agentId('buyer');
    t.identity.put({ agentId: buyer });
    await fund(t.client, buyer, '100');
    const { hold } = await t.client.createHold({ agentId: buyer, amount, currency: 'CREDIT', reference: 'deal_x', idempotencyKey: key(), controller });
    return { buyer, holdId: hold!.holdId };
  }

  async function merchantBalance(domain: string): Promise<string | undefined> {
    const { rows } = await t.sql.query(`SELECT balance::text, kind::text, owner_id FROM accounts WHERE account_id = $1`, [
      `merchant:${domain}/CREDIT/merchant_settlement`,
    ]);
    if (rows[0]) expect(rows[0]).toMatchObject({ kind: 'merchant_settlement', owner_id: `merchant:${domain}` });
    return rows[0]?.balance;
  }

  const settleToMerchant = (buyer: string, holdId: string, domain: string, extra: Partial<walletV1.SettleRequest> = {}) => ({
    agentId: buyer,
    holdId,
    contractId: 'deal_1',
    payeeAgentId: '',
    payeeMerchantDomain: domain,
    controller: 'commerce',
    idempotencyKey: key(),
    ...extra,
  });

  it("should settle a commerce hold to the merchant's settlement account with a signed receipt; the ledger still balances", async () => {
    const { buyer, holdId } = await purchase('40');
    const domain = merchant();
    const res = await t.client.settle(settleToMerchant(buyer, holdId, domain));
    const r = res.receipt!;
    expect(r).toMatchObject({
      kind: ReceiptKind.RECEIPT_KIND_SETTLEMENT,
      contractId: 'deal_1',
      holdId,
      payer: buyer,
      payee: `merchant:${domain}`,
      amount: '40',
      fee: '0',
      refundedAmount: '0',
      currency: 'CREDIT',
      signerPublicKey: t.signerPublicKey,
    });
    expect(verifyReceiptJson(receiptJson(fromProtoReceipt(r)))).toBe(true);
    expect(res.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_CONSUMED, controller: 'commerce', consumedAmount: '40', consumedToAgentId: `merchant:${domain}` });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '60', held: '0' } });
    expect(await merchantBalance(domain)).toBe('40000000');
    const events = await outboxOf(t.sql, buyer);
    expect(events.at(-1)).toMatchObject({ type: 'exchange.wallet.receipt.issued', data: { receipt: { payee: `merchant:${domain}` } } });
    expect((await t.client.getReceipt({ receiptId: '', contractId: 'deal_1' })).receipt).toEqual(r);

    const check = await t.client.checkLedger({});
    expect(check).toMatchObject({ ok: true, discrepancies: [], globalSums: { CREDIT: '0' } });
  });

  it('should take a fee and refund the rest of a partial merchant settlement', async () => {
    const { buyer, holdId } = await purchase('40');
    const domain = merchant();
    const res = await t.client.settle(settleToMerchant(buyer, holdId, domain, { amount: '30', fee: '1.5' }));
    expect(res.receipt).toMatchObject({ amount: '30', fee: '1.5', refundedAmount: '10', payee: `merchant:${domain}` });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '70', held: '0' } });
    expect(await merchantBalance(domain)).toBe('28500000');
  });

  it('should replay a merchant settlement with its key and refuse the key with another payload', async () => {
    const { buyer, holdId } = await purchase('25');
    const domain = merchant();
    const req = settleToMerchant(buyer, holdId, domain);
    const first = await t.client.settle(req);
    expect(await t.client.settle(req)).toEqual({ ...first, idempotentReplayed: true });
    expect(await grpcError(t.client.settle({ ...req, payeeMerchantDomain: merchant() }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'idempotency_key_reused',
    });
    expect(await merchantBalance(domain)).toBe('25000000');
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '75', held: '0' } });
  });

  it('should refund a commerce hold to the buyer', async () => {
    const { buyer, holdId } = await purchase('40');
    const res = await t.client.refund({ agentId: buyer, holdId, contractId: 'deal_2', idempotencyKey: key(), controller: 'commerce' });
    expect(res.receipt).toMatchObject({ kind: ReceiptKind.RECEIPT_KIND_REFUND, payer: buyer, payee: buyer, amount: '40', refundedAmount: '40' });
    expect(res.hold).toMatchObject({ status: HoldStatus.HOLD_STATUS_RELEASED, controller: 'commerce' });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });
  });

  it("should keep the market's and commerce's holds apart, and the agent's routes off both", async () => {
    const commerce = await purchase('10');
    const market = await purchase('10', 'market');
    const seller = agentId('seller');
    t.identity.put({ agentId: seller });
    const before = await outboxCount(t.sql);
    const refused: Array<[Promise<unknown>, string]> = [
      [t.client.settle({ agentId: commerce.buyer, holdId: commerce.holdId, contractId: 'c', payeeAgentId: seller, idempotencyKey: key() }), 'hold_controlled_by_commerce'],
      [t.client.settle({ ...settleToMerchant(commerce.buyer, commerce.holdId, merchant()), controller: 'market' }), 'validation_failed'],
      [t.client.refund({ agentId: commerce.buyer, holdId: commerce.holdId, contractId: 'c', idempotencyKey: key() }), 'hold_controlled_by_commerce'],
      [t.client.refund({ agentId: commerce.buyer, holdId: commerce.holdId, contractId: 'c', idempotencyKey: key(), controller: 'market' }), 'hold_controlled_by_commerce'],
      [t.client.releaseHold({ agentId: commerce.buyer, holdId: commerce.holdId, idempotencyKey: key() }), 'hold_controlled_by_commerce'],
      [t.client.settle(settleToMerchant(market.buyer, market.holdId, merchant())), 'hold_controlled_by_market'],
      [t.client.refund({ agentId: market.buyer, holdId: market.holdId, contractId: 'c', idempotencyKey: key(), controller: 'commerce' }), 'hold_controlled_by_market'],
    ];
    for (const [call, code] of refused) {
      expect(await grpcError(call)).toMatchObject({ code, grpcCode: code === 'validation_failed' ? status.INVALID_ARGUMENT : status.PERMISSION_DENIED });
    }
    expect(await outboxCount(t.sql)).toBe(before);
    for (const { buyer } of [commerce, market]) expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '10' } });
    // Each still moves on its own path.
    await t.client.settle({ agentId: market.buyer, holdId: market.holdId, contractId: 'c', payeeAgentId: seller, idempotencyKey: key() });
    await t.client.settle({ agentId: commerce.buyer, holdId: commerce.holdId, contractId: 'c', payeeAgentId: seller, idempotencyKey: key(), controller: 'commerce' });
    expect(await balancesOf(t.client, seller)).toEqual({ CREDIT: { available: '20', held: '0' } });
  });

  it.each<[string, Partial<walletV1.SettleRequest>, string]>([
    ['an unknown controller', { controller: 'registry' }, 'controller'],
    ['a controller with a capital', { controller: 'Commerce' }, 'controller'],
    ['a domain with a port', { payeeMerchantDomain: 'shop.example.com:8443' }, 'payee_merchant_domain'],
    ['an upper-case domain', { payeeMerchantDomain: 'Shop.Example.com' }, 'payee_merchant_domain'],
    ['a URL as domain', { payeeMerchantDomain: 'https://shop.example.com' }, 'payee_merchant_domain'],
    ['a 254-character domain', { payeeMerchantDomain: `${'a'.repeat(60)}.`.repeat(4) + 'b'.repeat(10) }, 'payee_merchant_domain'],
    ['both payees', { payeeAgentId: 'test:agent:someone' }, 'payee_merchant_domain'],
    ['no payee at all', { payeeMerchantDomain: '' }, 'payee_agent_id'],
    ['a merchant payee for the market', { controller: '' }, 'payee_merchant_domain'],
  ])('should refuse %s with validation_failed, changing nothing', async (_name, change, field) => {
    const { buyer, holdId } = await purchase('10');
    const domain = merchant();
    const before = await outboxCount(t.sql);
    expect(await grpcError(t.client.settle(settleToMerchant(buyer, holdId, domain, change)))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
      details: { field },
    });
    expect(await outboxCount(t.sql)).toBe(before);
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '10' } });
    expect(await merchantBalance(domain)).toBeUndefined();
    expect((await t.client.getHold({ agentId: buyer, holdId })).hold!.status).toBe(HoldStatus.HOLD_STATUS_ACTIVE);
  });

  it('should refuse a bad controller on Refund too', async () => {
    const { buyer, holdId } = await purchase('10');
    expect(await grpcError(t.client.refund({ agentId: buyer, holdId, contractId: 'c', idempotencyKey: key(), controller: 'agent' }))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      code: 'validation_failed',
      details: { field: 'controller' },
    });
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '90', held: '10' } });
  });

  it('should obey the settlements kill switch for a merchant settlement', async () => {
    const { buyer, holdId } = await purchase('10');
    const domain = merchant();
    await t.client.setControls({ controls: { readOnly: false, killSwitches: ['settlements'] }, reason: 'test' });
    try {
      expect(await grpcError(t.client.settle(settleToMerchant(buyer, holdId, domain)))).toMatchObject({ grpcCode: status.UNAVAILABLE, code: 'kill_switch:settlements' });
    } finally {
      await t.client.setControls({ controls: { readOnly: false, killSwitches: [] }, reason: 'test over' });
    }
    expect(await merchantBalance(domain)).toBeUndefined();
  });

  it("should correct a merchant settlement out of the merchant's settlement account, never below zero", async () => {
    const { buyer, holdId } = await purchase('40');
    const domain = merchant();
    const { receipt } = await t.client.settle(settleToMerchant(buyer, holdId, domain, { fee: '2' }));
    const corrected = await t.client.correctSettlement({ agentId: buyer, receiptId: receipt!.receiptId, reason: 'merchant never shipped', idempotencyKey: key() });
    expect(corrected.receipt).toMatchObject({ kind: ReceiptKind.RECEIPT_KIND_CORRECTION, payee: `merchant:${domain}`, amount: '40', fee: '2' });
    expect(await merchantBalance(domain)).toBe('0');
    expect(await balancesOf(t.client, buyer)).toEqual({ CREDIT: { available: '100', held: '0' } });
    expect((await t.client.checkLedger({})).ok).toBe(true);

    // A settlement account already paid out cannot pay a correction back.
    const second = await purchase('10');
    const other = merchant();
    const settled = await t.client.settle(settleToMerchant(second.buyer, second.holdId, other));
    await t.sql.query(`UPDATE accounts SET balance = balance - 5000000 WHERE account_id = $1`, [`merchant:${other}/CREDIT/merchant_settlement`]);
    try {
      expect(await grpcError(t.client.correctSettlement({ agentId: second.buyer, receiptId: settled.receipt!.receiptId, reason: 'r', idempotencyKey: key() }))).toMatchObject({
        grpcCode: status.FAILED_PRECONDITION,
        code: 'insufficient_funds',
        details: { available: '5', required: '10' },
      });
    } finally {
      await t.sql.query(`UPDATE accounts SET balance = balance + 5000000 WHERE account_id = $1`, [`merchant:${other}/CREDIT/merchant_settlement`]);
    }
    await expect(t.sql.query(`UPDATE accounts SET balance = -1 WHERE account_id = $1`, [`merchant:${other}/CREDIT/merchant_settlement`])).rejects.toThrow(
      /accounts_merchant_settlement_nonnegative/,
    );
  });
});
