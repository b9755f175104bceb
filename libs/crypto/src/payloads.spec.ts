import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { canonicalBytes, canonicalize } from './canonical-json';
import { publicKeyFromPrivate, signCanonical, verifyCanonical } from './ed25519';
import { fromBase64, toBase64 } from './encoding';
import { bodySha256, registrationProofPayload, REQUEST_NONCE_PATTERN, requestSigningPayload } from './payloads';

// RFC 8410 DER prefixes: PKCS#8 for a raw 32-byte seed, SPKI for a raw 32-byte public key.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

describe('registrationProofPayload', () => {
  it('should keep exactly agent_id, primary_pubkey and proof_nonce', () => {
    const extra = { agent_id: 'a', primary_pubkey: 'p', proof_nonce: 'n', pubkey_set: ['x'], identity_level: 'L' };
    expect(registrationProofPayload(extra)).toEqual({ agent_id: 'a', primary_pubkey: 'p', proof_nonce: 'n' });
  });

  describe('fixed vector (seed 00 01 … 1f, acme:agent:alpha, nonce n-1)', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const expectedPubkey = 'A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=';
    const expectedCanonical =
      '{"agent_id":"acme:agent:alpha","primary_pubkey":"A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=","proof_nonce":"n-1"}';
    const expectedSignature =
      'vzltvnAO9eJzjr3p4qKRNNHgBYn8fMoCqpQxHcGantZ9Ls+1u2SWptWaA4qJOl/HRPV5lXsZ/p3bH13mbiIBBA==';
    const payload = () =>
      registrationProofPayload({ proof_nonce: 'n-1', primary_pubkey: expectedPubkey, agent_id: 'acme:agent:alpha' });

    it('should derive the recorded public key and canonical string and signature', () => {
      expect(toBase64(publicKeyFromPrivate(seed))).toBe(expectedPubkey);
      expect(canonicalize(payload())).toBe(expectedCanonical);
      expect(signCanonical(payload(), seed)).toBe(expectedSignature);
      expect(verifyCanonical(payload(), expectedSignature, expectedPubkey)).toBe(true);
    });

    it('should match node:crypto (OpenSSL) independently', () => {
      const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
      expect(spki.subarray(0, 12).equals(SPKI_ED25519_PREFIX)).toBe(true);
      expect(spki.subarray(12).toString('base64')).toBe(expectedPubkey);

      const message = Buffer.from(expectedCanonical, 'utf8');
      expect(Buffer.from(canonicalBytes(payload())).equals(message)).toBe(true);
      expect(nodeSign(null, message, privateKey).toString('base64')).toBe(expectedSignature);

      const publicKey = createPublicKey({
        key: Buffer.concat([SPKI_ED25519_PREFIX, fromBase64(expectedPubkey)]),
        format: 'der',
        type: 'spki',
      });
      expect(nodeVerify(null, message, publicKey, fromBase64(expectedSignature))).toBe(true);
    });

    it('should not verify with another nonce', () => {
      expect(verifyCanonical({ ...payload(), proof_nonce: 'n-2' }, expectedSignature, expectedPubkey)).toBe(false);
    });
  });
});

describe('requestSigningPayload', () => {
  it('should keep exactly agent_id, method, path, timestamp, nonce and body_sha256, in canonical key order', () => {
    const payload = requestSigningPayload({
      timestamp: '1795000000',
      path: '/v1/wallets/acme:agent:alpha?limit=5',
      method: 'POST',
      nonce: 'n0nce-0123456789_AB',
      agent_id: 'acme:agent:alpha',
      body_sha256: bodySha256('{"a":1}'),
      extra: 'dropped',
    } as Parameters<typeof requestSigningPayload>[0]);
    expect(canonicalize(payload)).toBe(
      `{"agent_id":"acme:agent:alpha","body_sha256":"${bodySha256('{"a":1}')}","method":"POST","nonce":"n0nce-0123456789_AB","path":"/v1/wallets/acme:agent:alpha?limit=5","timestamp":"1795000000"}`,
    );
  });

  it('should describe the nonce as 16–64 URL-safe characters', () => {
    expect(REQUEST_NONCE_PATTERN.test('a'.repeat(16))).toBe(true);
    expect(REQUEST_NONCE_PATTERN.test('A-z_9'.repeat(12) + 'abcd')).toBe(true);
    for (const bad of ['a'.repeat(15), 'a'.repeat(65), 'a'.repeat(15) + '=', 'a'.repeat(15) + '+', 'a'.repeat(15) + '/', 'a'.repeat(15) + ' ']) {
      expect(REQUEST_NONCE_PATTERN.test(bad)).toBe(false);
    }
  });

  it('should hash a missing body as the empty string', () => {
    const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(bodySha256(undefined)).toBe(empty);
    expect(bodySha256(null)).toBe(empty);
    expect(bodySha256(new Uint8Array())).toBe(empty);
  });
});
