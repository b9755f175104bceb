import { generateKeyPair, toBase64 } from '@exchange/crypto';
import { receiptJson, receiptPayload, signReceipt, verifyReceiptJson, type UnsignedReceipt } from './receipt';

const { privateKey, publicKey } = generateKeyPair();
const unsigned: UnsignedReceipt = {
  receiptId: 'rcpt_1',
  kind: 'settlement',
  contractId: 'ctr_1',
  holdId: 'hld_1',
  payer: 'acme:agent:buyer',
  payee: 'acme:agent:seller',
  amount: 60_000_000n,
  fee: 1_500_000n,
  refundedAmount: 40_000_000n,
  currency: 'CREDIT',
  journalEntryIds: ['jrn_1', 'jrn_2'],
  settledAt: new Date('2026-11-21T18:00:00.000Z'),
  signerPublicKey: toBase64(publicKey),
};

describe('receipts', () => {
  it('should sign the snake_case JSON form without the signature', () => {
    expect(receiptPayload(unsigned)).toEqual({
      receipt_id: 'rcpt_1',
      kind: 'settlement',
      contract_id: 'ctr_1',
      hold_id: 'hld_1',
      payer: 'acme:agent:buyer',
      payee: 'acme:agent:seller',
      amount: '60',
      fee: '1.5',
      refunded_amount: '40',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_1', 'jrn_2'],
      settled_at: '2026-11-21T18:00:00.000Z',
      signer_public_key: toBase64(publicKey),
    });
  });

  it('should produce a signature that verifies offline, and fail once anything changes', () => {
    const json = receiptJson(signReceipt(unsigned, privateKey));
    expect(verifyReceiptJson(json)).toBe(true);
    expect(verifyReceiptJson({ ...json, amount: '61' })).toBe(false);
    expect(verifyReceiptJson({ ...json, signer_public_key: toBase64(generateKeyPair().publicKey) })).toBe(false);
  });
});

describe('purchase refund receipts', () => {
  const refund: UnsignedReceipt = {
    ...unsigned,
    receiptId: 'rcpt_3',
    kind: 'purchase_refund',
    payer: 'merchant:shop.example.com',
    payee: 'acme:agent:buyer',
    amount: 5_000_000n,
    fee: 0n,
    refundedAmount: 0n,
    journalEntryIds: ['jrn_3'],
    refundsReceiptId: 'rcpt_1',
    reason: 'damaged',
    reference: 'case_1',
  };

  it('should sign refunds_receipt_id and reason (never the unsigned reference) only on purchase_refund receipts', () => {
    const payload = receiptPayload(refund);
    expect(payload).toMatchObject({ kind: 'purchase_refund', refunds_receipt_id: 'rcpt_1', reason: 'damaged' });
    expect(payload).not.toHaveProperty('reference');
    expect(payload).not.toHaveProperty('corrects_receipt_id');
    expect(receiptPayload({ ...unsigned, refundsReceiptId: 'rcpt_x' })).not.toHaveProperty('refunds_receipt_id');
    const json = receiptJson(signReceipt(refund, privateKey));
    expect(verifyReceiptJson(json)).toBe(true);
    expect(verifyReceiptJson({ ...json, refunds_receipt_id: 'rcpt_2' })).toBe(false);
  });
});
