import { fromBase64, generateKeyPair, sign, toBase64, verify } from '@exchange/crypto';
import { mandateSignedPayload, mandateSigningBytes } from './mandate-signing';

const input = {
  signerAgentId: 'agt_signer',
  agentId: 'agt_buyer',
  scope: { merchants: ['shop.example'], categories: [], skus: ['b', 'a'] },
  limits: { perTransaction: '25.50', total: '100', currency: 'USD' },
  expiresAt: new Date('2026-12-31T23:59:59+02:00'),
};

describe('mandate signing payload', () => {
  it('should be the documented snake_case object with expires_at normalized to toISOString', () => {
    expect(mandateSignedPayload(input)).toEqual({
      signer_agent_id: 'agt_signer',
      agent_id: 'agt_buyer',
      scope: { merchants: ['shop.example'], categories: [], skus: ['b', 'a'] },
      limits: { per_transaction: '25.50', total: '100', currency: 'USD' },
      expires_at: '2026-12-31T21:59:59.000Z',
    });
  });

  it('should sign the exact canonical JSON text a non-JS client can rebuild (keys sorted, lists in order, amounts as sent)', () => {
    const text = new TextDecoder().decode(mandateSigningBytes(mandateSignedPayload(input)));
    expect(text).toBe(
      '{"agent_id":"agt_buyer","expires_at":"2026-12-31T21:59:59.000Z",' +
        '"limits":{"currency":"USD","per_transaction":"25.50","total":"100"},' +
        '"scope":{"categories":[],"merchants":["shop.example"],"skus":["b","a"]},"signer_agent_id":"agt_signer"}',
    );
  });

  it('should verify a signature over those bytes and not over a changed mandate', () => {
    const keys = generateKeyPair();
    const signature = toBase64(sign(mandateSigningBytes(mandateSignedPayload(input)), keys.privateKey));
    expect(verify(fromBase64(signature), mandateSigningBytes(mandateSignedPayload(input)), keys.publicKey)).toBe(true);
    const raised = mandateSignedPayload({ ...input, limits: { ...input.limits, total: '1000' } });
    expect(verify(fromBase64(signature), mandateSigningBytes(raised), keys.publicKey)).toBe(false);
  });

  it('should not share the caller\'s arrays (the stored payload cannot change under it)', () => {
    const merchants = ['a.example'];
    const payload = mandateSignedPayload({ ...input, scope: { ...input.scope, merchants } });
    merchants.push('b.example');
    expect(payload.scope.merchants).toEqual(['a.example']);
  });
});
