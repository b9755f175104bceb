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
