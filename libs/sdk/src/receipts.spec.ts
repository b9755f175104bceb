import { createPrivateKey, sign } from 'node:crypto';
import { verifyReceipt, type Receipt } from './receipts';
import { nodeKeyPair } from './testing/node-ed25519';

// Signed here with node:crypto and a hand-written canonical form, so verifyReceipt is not checked
// against @exchange/crypto's own signer.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function signedReceipt(seed: Uint8Array, publicKeyB64: string): Receipt {
  const unsigned = {
    receipt_id: 'rcpt_1',
    kind: 'settlement' as const,
    contract_id: 'ctr_1',
    hold_id: 'hld_1',
    payer: 'acme:agent:buyer',
    payee: 'acme:agent:seller',
    amount: '25',
    fee: '0.5',
    refunded_amount: '5',
    currency: 'CREDIT',
    journal_entry_ids: ['jrn_1', 'jrn_2'],
    settled_at: '2026-11-21T18:00:00.123Z',
    signer_public_key: publicKeyB64,
  };
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  return { ...unsigned, signature: sign(null, Buffer.from(canonical(unsigned)), key).toString('base64') };
}

describe('verifyReceipt', () => {
  const keys = nodeKeyPair();
  const pub = Buffer.from(keys.publicKey).toString('base64');
  const receipt = signedReceipt(keys.privateKey, pub);

  it('accepts a receipt signed by the exchange key, whatever the member order', () => {
    expect(verifyReceipt(receipt, pub)).toBe(true);
    const reordered = Object.fromEntries(Object.entries(receipt).reverse());
    expect(verifyReceipt(reordered, pub)).toBe(true);
  });

  it('rejects any changed member', () => {
    expect(verifyReceipt({ ...receipt, amount: '26' }, pub)).toBe(false);
    expect(verifyReceipt({ ...receipt, journal_entry_ids: ['jrn_1'] }, pub)).toBe(false);
    expect(verifyReceipt({ ...receipt, extra: 'x' }, pub)).toBe(false);
  });

  it('rejects another key, a receipt naming another signer, and malformed input without throwing', () => {
    const other = Buffer.from(nodeKeyPair().publicKey).toString('base64');
    expect(verifyReceipt(receipt, other)).toBe(false);
    expect(verifyReceipt({ ...signedReceipt(keys.privateKey, other) }, other)).toBe(false); // signed by a key other than it names
    expect(verifyReceipt({ ...receipt, signature: 'not base64!' }, pub)).toBe(false);
    expect(verifyReceipt({ ...receipt, signature: undefined } as unknown as Receipt, pub)).toBe(false);
    expect(verifyReceipt(receipt, 'short')).toBe(false);
  });
});
