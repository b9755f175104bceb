import type { Receipt } from '../domain/receipt';
import { planCorrection } from './correction';
import { agentAccount } from '../domain/accounts';
import { correctionPostings } from '../domain/postings';

const settlement: Receipt = {
  receiptId: 'rcpt_1',
  kind: 'settlement',
  contractId: 'ctr_1',
  holdId: 'hold_1',
  payer: 'buyer',
  payee: 'seller',
  amount: 60_000_000n,
  fee: 1_500_000n,
  refundedAmount: 40_000_000n,
  currency: 'CREDIT',
  journalEntryIds: ['jrn_1'],
  settledAt: new Date('2026-11-22T00:00:00Z'),
  signerPublicKey: 'pk',
  signature: 'sig',
};

const base = {
  payer: 'buyer',
  original: settlement,
  existingCorrection: undefined,
  feesBalance: 10_000_000n,
  merchantBalance: null,
  purchaseRefunded: 0n,
  receiptId: 'rcpt_2',
  journalEntryId: 'jrn_2',
  reason: 'wrong seller',
  now: new Date('2026-11-22T01:00:00Z'),
  signerPublicKey: 'pk',
};

describe('planCorrection', () => {
  it('should build the correction receipt of a settlement', () => {
    expect(planCorrection(base)).toMatchObject({
      kind: 'correction',
      amount: 60_000_000n,
      fee: 1_500_000n,
      refundedAmount: 0n,
      correctsReceiptId: 'rcpt_1',
      reason: 'wrong seller',
      journalEntryIds: ['jrn_2'],
    });
  });

  it.each([
    ['unknown receipt', { original: undefined }, 'receipt_not_found'],
    ['another payer', { payer: 'someone' }, 'receipt_not_found'],
    ['a refund receipt', { original: { ...settlement, kind: 'refund' as const } }, 'invalid_state'],
    ['already corrected', { existingCorrection: { ...settlement, receiptId: 'rcpt_9', kind: 'correction' as const } }, 'invalid_state'],
    ['the fees account short', { feesBalance: 1_000_000n }, 'insufficient_funds'],
    ["the merchant's settlement account short", { merchantBalance: 58_499_999n }, 'insufficient_funds'],
  ])('should refuse %s', (_name, change, code) => {
    expect(() => planCorrection({ ...base, ...change })).toThrow(expect.objectContaining({ code }));
  });

  it("should correct a merchant's settlement its settlement account can pay back (amount - fee)", () => {
    const merchantPaid = { ...settlement, payee: 'merchant:shop.example.com' };
    expect(planCorrection({ ...base, original: merchantPaid, merchantBalance: 58_500_000n })).toMatchObject({
      kind: 'correction',
      payee: 'merchant:shop.example.com',
      amount: 60_000_000n,
    });
  });

  it("should reverse only what the merchant's purchase refunds have not paid back yet", () => {
    const merchantPaid = { ...settlement, payee: 'merchant:shop.example.com' };
    // Paid 60 (fee 1.5): the merchant got 58.5 and refunded 20 of it; 38.5 of its share is left.
    const partly = { ...base, original: merchantPaid, purchaseRefunded: 20_000_000n, merchantBalance: 38_500_000n };
    expect(planCorrection(partly)).toMatchObject({ kind: 'correction', amount: 40_000_000n, fee: 1_500_000n });
    expect(() => planCorrection({ ...partly, merchantBalance: 38_499_999n })).toThrow(expect.objectContaining({ code: 'insufficient_funds' }));
    // Refunded in full: only the fee is left to give back.
    expect(planCorrection({ ...partly, purchaseRefunded: 58_500_000n, merchantBalance: 0n })).toMatchObject({ amount: 1_500_000n });
  });

  it('should refuse a settlement without fee that purchase refunds paid back in full', () => {
    const merchantPaid = { ...settlement, payee: 'merchant:shop.example.com', fee: 0n };
    expect(() => planCorrection({ ...base, original: merchantPaid, purchaseRefunded: 60_000_000n, merchantBalance: 0n })).toThrow(
      expect.objectContaining({ code: 'invalid_state', details: { current: 'purchase_refunded', wanted: 'corrected' } }),
    );
  });
});

describe('correctionPostings', () => {
  it('should debit the payee and the fees account and credit the payer, balanced', () => {
    const postings = correctionPostings({ payer: 'buyer', payee: agentAccount('seller', 'CREDIT', 'available'), currency: 'CREDIT', amount: 60n, fee: 2n });
    expect(postings.map((p) => [p.account.owner, p.account.kind, p.amount])).toEqual([
      ['buyer', 'available', 60n],
      ['seller', 'available', -58n],
      ['system', 'fees', -2n],
    ]);
  });

  it('should drop the fees line when there was no fee', () => {
    expect(correctionPostings({ payer: 'b', payee: agentAccount('s', 'CREDIT', 'available'), currency: 'CREDIT', amount: 5n, fee: 0n })).toHaveLength(2);
  });
});
