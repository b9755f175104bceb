import type { Receipt } from '../domain/receipt';
import { purchaseRefundPostings } from '../domain/postings';
import { planPurchaseRefund, purchaseRefundCounter, requireCommerceController } from './purchase-refund';

const settlement: Receipt = {
  receiptId: 'rcpt_1',
  kind: 'settlement',
  contractId: 'pur_1',
  holdId: 'hld_1',
  payer: 'acme:agent:buyer',
  payee: 'merchant:shop.example.com',
  amount: 40_000_000n,
  fee: 1_000_000n,
  refundedAmount: 0n,
  currency: 'CREDIT',
  journalEntryIds: ['jrn_1'],
  settledAt: new Date('2026-11-24T23:59:00Z'),
  signerPublicKey: 'pk',
  signature: 'sig',
};

const base = {
  buyer: 'acme:agent:buyer',
  settlementReceiptId: 'rcpt_1',
  settlement,
  holdController: 'commerce',
  correction: undefined,
  refunded: 0n,
  merchantBalance: 100_000_000n,
  amount: 10_000_000n,
  reason: 'damaged on arrival',
  reference: 'case_1',
  receiptId: 'rcpt_2',
  journalEntryId: 'jrn_2',
  now: new Date('2026-11-25T01:00:00Z'),
  signerPublicKey: 'pk',
};

describe('planPurchaseRefund', () => {
  it('should build a purchase_refund receipt paid by the merchant account to the buyer', () => {
    expect(planPurchaseRefund(base)).toEqual({
      refundedTotal: 10_000_000n,
      paid: 39_000_000n,
      receipt: {
        receiptId: 'rcpt_2',
        kind: 'purchase_refund',
        contractId: 'pur_1',
        holdId: 'hld_1',
        payer: 'merchant:shop.example.com',
        payee: 'acme:agent:buyer',
        amount: 10_000_000n,
        fee: 0n,
        refundedAmount: 0n,
        currency: 'CREDIT',
        journalEntryIds: ['jrn_2'],
        settledAt: base.now,
        signerPublicKey: 'pk',
        refundsReceiptId: 'rcpt_1',
        reason: 'damaged on arrival',
        reference: 'case_1',
      },
    });
  });

  it('should allow refunds up to exactly what the merchant was paid (amount - fee), not a micro-unit more', () => {
    expect(planPurchaseRefund({ ...base, refunded: 29_000_000n }).refundedTotal).toBe(39_000_000n);
    expect(() => planPurchaseRefund({ ...base, refunded: 29_000_001n })).toThrow(
      expect.objectContaining({ grpcCode: 9, code: 'refund_exceeds_paid', details: { paid: '39', refunded: '29.000001', requested: '10' } }),
    );
    expect(() => planPurchaseRefund({ ...base, amount: 39_000_001n })).toThrow(expect.objectContaining({ code: 'refund_exceeds_paid' }));
  });

  it.each([
    ['an unknown receipt', { settlement: undefined }, 'receipt_not_found'],
    ["another buyer's receipt", { buyer: 'acme:agent:other' }, 'receipt_not_found'],
    ['a refund receipt', { settlement: { ...settlement, kind: 'refund' as const } }, 'invalid_state'],
    ['a purchase refund receipt', { settlement: { ...settlement, kind: 'purchase_refund' as const } }, 'invalid_state'],
    ['a settlement paid to an agent', { settlement: { ...settlement, payee: 'acme:agent:seller' } }, 'invalid_state'],
    ["a merchant settlement of a hold commerce does not control", { holdController: 'market' }, 'invalid_state'],
    ['a corrected settlement', { correction: { ...settlement, receiptId: 'rcpt_9', kind: 'correction' as const } }, 'invalid_state'],
    ['the merchant account short', { merchantBalance: 9_999_999n }, 'insufficient_funds'],
  ])('should refuse %s', (_name, change, code) => {
    expect(() => planPurchaseRefund({ ...base, ...change })).toThrow(expect.objectContaining({ code }));
  });

  it('should name the requested receipt when it is missing', () => {
    expect(() => planPurchaseRefund({ ...base, settlement: undefined })).toThrow(expect.objectContaining({ message: expect.stringContaining('rcpt_1') }));
  });
});

describe('requireCommerceController', () => {
  it('should accept only "commerce"', () => {
    expect(() => requireCommerceController('commerce')).not.toThrow();
  });
  it.each([undefined, '', 'market'])('should refuse %j with PERMISSION_DENIED forbidden', (raw) => {
    expect(() => requireCommerceController(raw)).toThrow(expect.objectContaining({ grpcCode: 7, code: 'forbidden' }));
  });
  it('should refuse an unknown name as a validation error', () => {
    expect(() => requireCommerceController('Commerce')).toThrow(expect.objectContaining({ grpcCode: 3, code: 'validation_failed', details: { field: 'controller' } }));
  });
});

describe('purchaseRefundCounter', () => {
  it("should key the counter by the settlement receipt, on the settlement's UTC day", () => {
    expect(purchaseRefundCounter(settlement)).toEqual({ key: 'purchase_refunded:rcpt_1', day: '2026-11-24' });
  });
});

describe('purchaseRefundPostings', () => {
  it("should move the amount from the merchant's settlement account to the buyer's available balance", () => {
    const postings = purchaseRefundPostings({ merchant: 'merchant:shop.example.com', buyer: 'acme:agent:buyer', currency: 'CREDIT', amount: 5n });
    expect(postings.map((p) => [p.account.owner, p.account.kind, p.amount])).toEqual([
      ['acme:agent:buyer', 'available', 5n],
      ['merchant:shop.example.com', 'merchant_settlement', -5n],
    ]);
  });
  it('should refuse a zero amount (a builder bug, never a client error)', () => {
    expect(() => purchaseRefundPostings({ merchant: 'merchant:m.example', buyer: 'b', currency: 'CREDIT', amount: 0n })).toThrow();
  });
});
