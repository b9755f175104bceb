import * as ed from '@noble/ed25519';
import { verify as opensslVerify } from 'node:crypto';
import {
  B,
  I,
  L,
  P,
  challenge,
  forgeCofactorless,
  le,
  mul,
  numLE,
  scalar,
  signature,
  signWith,
  torsionSubgroup,
  type Point,
} from '../test/ed25519-forge';
// ./ed25519 also wires noble's sync SHA-512, which ed.verify below needs.
import { publicKeyFromPrivate, sign, verifyWithAnyKeyAsync } from './ed25519';
import { verifyNative, verifyPortable } from './ed25519-backends';
import { isAcceptablePointEncoding, isCanonicalScalar } from './ed25519-policy';
import { toBase64 } from './encoding';
import { ed25519PublicKeyObject } from './key-object-cache';
import { isValidPublicKey } from './public-key';

const MESSAGE = new TextEncoder().encode('policy corpus');
const torsion = torsionSubgroup();

/** Every case `both` saw, for the threadpool twin (checked at the end of the corpus: it is async). */
const seen: Array<{ sig: Uint8Array; message: Uint8Array; publicKey: Uint8Array; valid: boolean }> = [];

/** Both backends, which must agree; the walk over base64 keys the servers use is checked on each case at the end. */
function both(sig: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const native = verifyNative(sig, message, publicKey);
  expect(verifyPortable(sig, message, publicKey)).toBe(native);
  seen.push({ sig, message, publicKey, valid: native });
  return native;
}

/** OpenSSL with no policy in front: shows what the policy is there for. */
function rawOpenssl(sig: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return opensslVerify(null, message, ed25519PublicKeyObject(publicKey), sig);
}

const withSign = (bytes: Uint8Array): Uint8Array => {
  const out = Uint8Array.from(bytes);
  out[31] |= 0x80;
  return out;
};

/** Every spelling of a small-order point: canonical, y + p (when below 2^255), negative zero. */
function smallOrderSpellings(): Uint8Array[] {
  const out: Uint8Array[] = torsion.map((t) => t.toBytes());
  for (const y of [0n, 1n]) out.push(le(y + P), withSign(le(y + P)));
  out.push(withSign(le(1n)), withSign(le(P - 1n)));
  return out;
}

describe('ed25519 strict policy', () => {
  it('should derive exactly 8 small-order points from the curve, all refused as A or R encodings', () => {
    const encodings = new Set(torsion.map((t) => Buffer.from(t.toBytes()).toString('hex')));
    expect(encodings.size).toBe(8);
    for (const t of torsion) expect(mul(t, 8n).is0()).toBe(true);
    for (const spelling of smallOrderSpellings()) expect(isAcceptablePointEncoding(spelling)).toBe(false);
  });

  it('should refuse every encoding with y ≥ p, with either sign bit', () => {
    for (let y = P; y < 1n << 255n; y++) {
      expect(isAcceptablePointEncoding(le(y))).toBe(false);
      expect(isAcceptablePointEncoding(withSign(le(y)))).toBe(false);
    }
    expect(isAcceptablePointEncoding(le(P - 2n))).toBe(true);
  });

  it('should accept S up to L − 1 only', () => {
    const sig = (s: bigint) => signature(new Uint8Array(32), s);
    expect([0n, 1n, L - 1n].map((s) => isCanonicalScalar(sig(s)))).toEqual([true, true, true]);
    expect([L, L + 1n, 2n * L, (1n << 256n) - 1n].map((s) => isCanonicalScalar(sig(s)))).toEqual([false, false, false, false]);
  });
});

describe('ed25519 backends on the malformed corpus', () => {
  const a = scalar('key', 0);
  const aPoint = mul(B, a);
  const aBytes = aPoint.toBytes();

  it('should refuse a small-order A in every spelling, where bare OpenSSL accepts a forged signature', () => {
    const spellings = smallOrderSpellings();
    expect(spellings).toHaveLength(14);
    spellings.forEach((spelling, i) => {
      const point = ed.Point.fromBytes(spelling, true); // ZIP-215 decoding reads every spelling
      const sig = forgeCofactorless(0n, spelling, point, MESSAGE, `small-${i}`);
      expect([i, rawOpenssl(sig, MESSAGE, spelling), both(sig, MESSAGE, spelling)]).toEqual([i, true, false]);
    });
  });

  it('should refuse the all-zero key and signature, and a key with y ≥ p that is a curve point of large order', () => {
    const zero = new Uint8Array(64);
    expect(both(zero, MESSAGE, new Uint8Array(32))).toBe(false);
    expect(both(zero, MESSAGE, aBytes)).toBe(false);
    const large = [2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n, 13n, 14n, 15n, 16n, 17n, 18n]
      .map((y) => le(y + P))
      .filter((bytes) => {
        try {
          return !ed.Point.fromBytes(bytes, true).isSmallOrder();
        } catch {
          return false;
        }
      });
    expect(large.length).toBeGreaterThan(0);
    for (const key of large) {
      expect(ed25519PublicKeyObject(key).asymmetricKeyType).toBe('ed25519');
      expect(both(sign(MESSAGE, new Uint8Array(32)), MESSAGE, key)).toBe(false);
    }
  });

  it('should refuse a small-order R, even when the key holder made the equation hold (R = I, S = k·a)', () => {
    const r = I.toBytes();
    const sig = signature(r, (challenge(r, aBytes, MESSAGE) * a) % L);
    expect([rawOpenssl(sig, MESSAGE, aBytes), both(sig, MESSAGE, aBytes)]).toEqual([true, false]);
    for (const spelling of smallOrderSpellings()) {
      const forged = signature(spelling, (challenge(spelling, aBytes, MESSAGE) * a) % L);
      expect(both(forged, MESSAGE, aBytes)).toBe(false);
    }
  });

  it('should refuse R with y ≥ p', () => {
    const honest = sign(MESSAGE, new Uint8Array(32).fill(1));
    const key = publicKeyFromPrivate(new Uint8Array(32).fill(1));
    expect(both(honest, MESSAGE, key)).toBe(true);
    for (let y = P; y < 1n << 255n; y++) expect(both(signature(le(y), numLE(honest.subarray(32))), MESSAGE, key)).toBe(false);
  });

  it('should refuse S = L, S = L + s, S = 2^256 − 1 (bare OpenSSL too)', () => {
    const seed = new Uint8Array(32).fill(2);
    const key = publicKeyFromPrivate(seed);
    const honest = sign(MESSAGE, seed);
    const r = honest.subarray(0, 32);
    for (const s of [L, L + numLE(honest.subarray(32)), (1n << 256n) - 1n]) {
      expect([rawOpenssl(signature(r, s), MESSAGE, key), both(signature(r, s), MESSAGE, key)]).toEqual([false, false]);
    }
  });

  it('should refuse R + T (mixed order) that only the cofactored equation accepts, as noble strict verify does not', () => {
    const t8 = torsion[1];
    for (let i = 0; i < 4; i++) {
      const r = scalar('nonce', i);
      const sig = signWith(a, aBytes, mul(B, r).add(t8), r, MESSAGE);
      expect([ed.verify(sig, MESSAGE, aBytes, { zip215: false }), rawOpenssl(sig, MESSAGE, aBytes), both(sig, MESSAGE, aBytes)]).toEqual([true, false, false]);
    }
  });

  describe('a mixed-order key A = [a]B + T', () => {
    const mixed: Point = aPoint.add(torsion[1]);
    const mixedBytes = mixed.toBytes();

    it('should pass isValidPublicKey like [a]B (torsion is harmless under the cofactorless equation); small-order keys and non-points do not', () => {
      expect([isValidPublicKey(mixedBytes), isValidPublicKey(aBytes)]).toEqual([true, true]);
      expect(smallOrderSpellings().map((k) => isValidPublicKey(k))).toEqual(Array(14).fill(false));
      const notAPoint = le(2n); // y = 2: (y² − 1)/(dy² + 1) has no square root
      expect(() => ed.Point.fromBytes(notAPoint, false)).toThrow();
      expect([isValidPublicKey(notAPoint), isValidPublicKey(new Uint8Array(31))]).toEqual([false, false]);
    });

    it('should fail both backends on a signature only the cofactored equation accepts', () => {
      let checked = 0;
      for (let i = 0; checked < 4; i++) {
        const message = new TextEncoder().encode(`cofactored ${i}`);
        const r = scalar('mixed-nonce', i);
        const sig = signWith(a, mixedBytes, mul(B, r), r, message);
        if (challenge(sig.subarray(0, 32), mixedBytes, message) % 8n === 0n) continue; // [k]T = I: both equations hold
        expect([ed.verify(sig, message, mixedBytes, { zip215: false }), both(sig, message, mixedBytes)]).toEqual([true, false]);
        checked++;
      }
    });

    it('should pass both backends on a signature the cofactorless equation accepts', () => {
      const sig = forgeCofactorless(a, mixedBytes, torsion[1], MESSAGE, 'mixed-forge');
      expect([rawOpenssl(sig, MESSAGE, mixedBytes), both(sig, MESSAGE, mixedBytes)]).toEqual([true, true]);
    });
  });

  // Last in the file, so it sees every case above (jest runs a file's tests in order).
  // verifyWithAnyKeyAsync: the signature policy once, then the key policy or the cache per key.
  it('should give every case above the same answer through the servers\' walk over base64 keys (verifyWithAnyKeyAsync)', async () => {
    expect(seen.length).toBeGreaterThan(50);
    for (const [i, c] of seen.entries()) {
      const key = toBase64(c.publicKey);
      expect([i, await verifyWithAnyKeyAsync(toBase64(c.sig), c.message, [key])]).toEqual([i, c.valid ? key : null]);
    }
  });
});
