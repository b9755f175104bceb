import { generateKeyPair, signCanonical, toBase64, verifyCanonical } from '@exchange/crypto';
import { ackPayload, deliveryReceiptPayload } from './receipts';

describe('signed payloads', () => {
  it('ack payload is {artifact_ref, agent_id}', () => {
    const keys = generateKeyPair();
    const sig = signCanonical(ackPayload('sha256:ab', 'x:agent:a'), keys.privateKey);
    expect(verifyCanonical({ agent_id: 'x:agent:a', artifact_ref: 'sha256:ab' }, sig, toBase64(keys.publicKey))).toBe(true);
  });

  it('delivery receipt payload drops the signature fields', () => {
    const fields = { delivery_receipt_id: 'dlv_1', artifact_ref: 'sha256:ab', agent_id: 'a', size_bytes: 3, delivered_at: '2026-01-01T00:00:00.000Z' };
    expect(deliveryReceiptPayload({ ...fields, signature: 'x', signer_public_key: 'y' } as typeof fields)).toEqual(fields);
  });
});
