import { fromBase64, toBase64 } from './encoding';
import {
  generateKeyPair,
  publicKeyFromPrivate,
  sign,
  signCanonical,
  verify,
  verifyCanonical,
  verifyCanonicalAsync,
  verifyWithAnyKeyAsync,
} from './ed25519';
import { verifyBackend } from './ed25519-backends';
import { L, littleEndian, numberLE } from './ed25519-policy';
import { CryptoFormatError } from './errors';

const message = new TextEncoder().encode('hello');

/** S + L: the malleated twin of a signature. */
function addLToS(signature: Uint8Array): Uint8Array {
  const out = Uint8Array.from(signature);
  out.set(littleEndian(numberLE(signature.subarray(32)) + L), 32);
  return out;
}

describe('ed25519', () => {
  const { privateKey, publicKey } = generateKeyPair();

  it('should generate a 32-byte seed and its 32-byte public key', () => {
    expect(privateKey).toHaveLength(32);
    expect(publicKey).toHaveLength(32);
    expect(publicKeyFromPrivate(privateKey)).toEqual(publicKey);
    expect(generateKeyPair().privateKey).not.toEqual(privateKey);
  });

  it('should sign deterministically and verify', () => {
    const signature = sign(message, privateKey);
    expect(signature).toHaveLength(64);
    expect(sign(message, privateKey)).toEqual(signature);
    expect(verify(signature, message, publicKey)).toBe(true);
  });

  it('should not verify a changed message, signature or key', () => {
    const signature = sign(message, privateKey);
    const tampered = Uint8Array.from(signature);
    tampered[0] ^= 1;
    expect(verify(tampered, message, publicKey)).toBe(false);
    expect(verify(signature, new TextEncoder().encode('hellp'), publicKey)).toBe(false);
    expect(verify(signature, message, generateKeyPair().publicKey)).toBe(false);
  });

  it('should reject a malleated signature (S + L)', () => {
    const signature = sign(message, privateKey);
    expect(verify(addLToS(signature), message, publicKey)).toBe(false);
  });

  it.each([
    ['63-byte signature', 63, 32],
    ['65-byte signature', 65, 32],
    ['empty signature', 0, 32],
    ['31-byte key', 64, 31],
    ['33-byte key', 64, 33],
    ['empty key', 64, 0],
  ])('should return false, not throw, for a %s', (_label, sigLength, keyLength) => {
    const signature = sign(message, privateKey);
    const sig = sigLength <= 64 ? signature.slice(0, sigLength) : Uint8Array.from([...signature, 0]);
    const key = keyLength <= 32 ? publicKey.slice(0, keyLength) : Uint8Array.from([...publicKey, 0]);
    expect(verify(sig, message, key)).toBe(false);
  });

  it('should return false for a key that is not a curve point and for non-byte input', () => {
    const signature = sign(message, privateKey);
    const notAPoint = new Uint8Array(32).fill(0xff);
    expect(verify(signature, message, notAPoint)).toBe(false);
    expect(verify('x' as unknown as Uint8Array, message, publicKey)).toBe(false);
    expect(verify(signature, 'hello' as unknown as Uint8Array, publicKey)).toBe(false);
  });

  it('should refuse to sign with a private key of the wrong length', () => {
    expect(() => sign(message, new Uint8Array(31))).toThrow(CryptoFormatError);
    expect(() => sign(message, new Uint8Array(64))).toThrow(CryptoFormatError);
    expect(() => publicKeyFromPrivate(new Uint8Array(33))).toThrow(CryptoFormatError);
  });
});

// Each check runs on the in-place function and its off-the-event-loop twin: same answers.
const canonicalVariants: Array<[string, (value: unknown, signature: string, key: string) => Promise<boolean>]> = [
  ['verifyCanonical', async (value, signature, key) => verifyCanonical(value, signature, key)],
  ['verifyCanonicalAsync', verifyCanonicalAsync],
];

describe.each(canonicalVariants)('signCanonical / %s', (_name, check) => {
  const { privateKey, publicKey } = generateKeyPair();
  const publicKeyB64 = toBase64(publicKey);

  it('should sign the canonical form, so member order does not matter', async () => {
    const signature = signCanonical({ b: 2, a: 1 }, privateKey);
    expect(fromBase64(signature)).toHaveLength(64);
    expect(signCanonical({ a: 1, b: 2 }, privateKey)).toBe(signature);
    expect(await check({ a: 1, b: 2 }, signature, publicKeyB64)).toBe(true);
  });

  it('should return false for a changed value, bad base64, wrong lengths or an unserializable value', async () => {
    const signature = signCanonical({ a: 1 }, privateKey);
    expect(await check({ a: 2 }, signature, publicKeyB64)).toBe(false);
    expect(await check({ a: 1, extra: null }, signature, publicKeyB64)).toBe(false);
    expect(await check({ a: 1 }, signature.slice(0, -2), publicKeyB64)).toBe(false);
    expect(await check({ a: 1 }, signature, publicKeyB64.replace(/=$/, ''))).toBe(false);
    expect(await check({ a: 1 }, toBase64(new Uint8Array(64)), publicKeyB64)).toBe(false);
    expect(await check({ a: 1 }, signature, toBase64(publicKey.slice(0, 31)))).toBe(false);
    expect(await check({ a: Number.NaN }, signature, publicKeyB64)).toBe(false);
  });
});

describe('verifyWithAnyKeyAsync', () => {
  const check = verifyWithAnyKeyAsync;
  const keys = [generateKeyPair(), generateKeyPair(), generateKeyPair()];
  const keysB64 = keys.map((k) => toBase64(k.publicKey));
  const signedBy = (i: number) => toBase64(sign(message, keys[i].privateKey));

  it('should settle only after the event loop turns (OpenSSL on the threadpool, not in place)', async () => {
    expect(verifyBackend).toBe('native');
    let settled = false;
    const pending = check(signedBy(0), message, keysB64).then((key) => {
      settled = true;
      return key;
    });
    for (let i = 0; i < 50; i++) await Promise.resolve(); // microtasks cannot let a threadpool callback in
    expect(settled).toBe(false);
    expect(await pending).toBe(keysB64[0]);
  });

  it('should return the key that verifies, whichever position it has', async () => {
    expect(await check(signedBy(0), message, keysB64)).toBe(keysB64[0]);
    expect(await check(signedBy(2), message, keysB64)).toBe(keysB64[2]);
    expect(await check(signedBy(1), message, [keysB64[1]])).toBe(keysB64[1]);
  });

  it('should return null for a key not offered, another message, a malleated signature or no keys', async () => {
    expect(await check(signedBy(2), message, keysB64.slice(0, 2))).toBeNull();
    expect(await check(signedBy(0), new TextEncoder().encode('hellO'), keysB64)).toBeNull();
    expect(await check(toBase64(addLToS(fromBase64(signedBy(0)))), message, keysB64)).toBeNull();
    expect(await check(signedBy(0), message, [])).toBeNull();
  });

  it('should return null, never throw, for a malformed signature or key', async () => {
    const signature = signedBy(1);
    for (const bad of ['', 'not base64!', signature.replace(/=+$/, ''), toBase64(new Uint8Array(63)), toBase64(new Uint8Array(65))]) {
      expect(await check(bad, message, keysB64)).toBeNull();
    }
    // Malformed keys before the good one are skipped, not fatal.
    expect(await check(signature, message, ['%%%', toBase64(new Uint8Array(31)), toBase64(new Uint8Array(32)), keysB64[1]])).toBe(keysB64[1]);
    // The same key spelled with a non-zero unused bit (strict base64 refuses it), after it verified.
    const loose = keysB64[1].slice(0, 42) + String.fromCharCode(keysB64[1].charCodeAt(42) + 1) + '=';
    expect(Buffer.from(loose, 'base64')).toEqual(Buffer.from(fromBase64(keysB64[1])));
    expect(await check(signature, message, [loose])).toBeNull();
  });
});
