import { walletV1 } from '@exchange/proto';
import { walletReceiptJson } from './wallet-receipt';

const base = {
  receiptId: 'rcpt_1', contractId: 'deal_1', holdId: 'hld_1', payer: 'a', payee: 'merchant:shop.example', amount: '25', fee: '0', refundedAmount: '0',
  currency: 'USD', journalEntryIds: ['jrn_1', 'jrn_2'], settledAt: new Date('2026-11-25T00:00:00Z'), signature: 'sig', signerPublicKey: 'pk',
};
const signedBase = {
  receipt_id: 'rcpt_1', contract_id: 'deal_1', hold_id: 'hld_1', payer: 'a', payee: 'merchant:shop.example', amount: '25', fee: '0',
  refunded_amount: '0', currency: 'USD', journal_entry_ids: ['jrn_1', 'jrn_2'], settled_at: '2026-11-25T00:00:00.000Z', signer_public_key: 'pk', signature: 'sig',
};

describe('walletReceiptJson', () => {
  it('a settlement is its signed snake_case payload plus signature, no correction or refund fields', () => {
    const json = walletReceiptJson({ ...base, kind: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT, refundsReceiptId: 'x', reason: 'ignored' });
    expect(json).toEqual({ ...signedBase, kind: 'settlement' });
  });

  it('a purchase refund adds refunds_receipt_id and reason (null when absent, as signed)', () => {
    expect(walletReceiptJson({ ...base, kind: walletV1.ReceiptKind.RECEIPT_KIND_PURCHASE_REFUND, refundsReceiptId: 'rcpt_0', reason: 'wilted' })).toEqual({
      ...signedBase, kind: 'purchase_refund', refunds_receipt_id: 'rcpt_0', reason: 'wilted',
    });
    expect(walletReceiptJson({ ...base, kind: walletV1.ReceiptKind.RECEIPT_KIND_PURCHASE_REFUND })).toMatchObject({ refunds_receipt_id: null, reason: null });
  });

  it('a correction adds corrects_receipt_id and reason', () => {
    expect(walletReceiptJson({ ...base, kind: walletV1.ReceiptKind.RECEIPT_KIND_CORRECTION, correctsReceiptId: 'rcpt_0', reason: 'forged' })).toEqual({
      ...signedBase, kind: 'correction', corrects_receipt_id: 'rcpt_0', reason: 'forged',
    });
  });
});
