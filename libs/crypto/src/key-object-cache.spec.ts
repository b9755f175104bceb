import { generateKeyPairSync } from 'node:crypto';
import { ed25519PublicKeyObject } from './key-object-cache';
import { le, P } from '../test/ed25519-forge';

// The JWK import gives OpenSSL the same raw key the DER SubjectPublicKeyInfo did: compared through
// the SPKI export, for real keys and for bytes that are no canonical point (y ≥ p, y = 0); the
// RFC 8032 vectors spec checks verification through it on all 1,024 lines (the cache itself:
// ed25519-backends.spec).

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const spkiOf = (raw: Uint8Array) => ed25519PublicKeyObject(raw).export({ format: 'der', type: 'spki' });

describe('ed25519PublicKeyObject', () => {
  it('holds exactly the raw key given, canonical or not', () => {
    const real = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    for (const raw of [new Uint8Array(real), le(P + 2n), new Uint8Array(32), new Uint8Array(32).fill(0xff)]) {
      expect(spkiOf(raw).equals(Buffer.concat([SPKI_ED25519_PREFIX, raw]))).toBe(true);
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    for (const length of [0, 31, 33, 64]) expect(() => ed25519PublicKeyObject(new Uint8Array(length))).toThrow();
  });
});
