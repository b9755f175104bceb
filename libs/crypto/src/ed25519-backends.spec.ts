import fc from 'fast-check';
import { generateKeyPair, publicKeyFromPrivate, sign } from './ed25519';
import { verifyNative, verifyNativeB64KeyAsync, verifyPortable, verifyPortableB64Key } from './ed25519-backends';
import { passesSignaturePolicy } from './ed25519-policy';
import { toBase64 } from './encoding';
import { KeyObjectCache } from './key-object-cache';

describe('verifyNative and verifyPortable agree', () => {
  it('on random keys and messages, with random bit flips in the signature, message or key', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom('none', 'signature', 'message', 'key'),
        fc.nat(),
        (seed, message, target, bit) => {
          const publicKey = publicKeyFromPrivate(seed);
          const signature = sign(message, seed);
          const parts = { signature, message: message.length > 0 ? message : Uint8Array.of(0), key: publicKey };
          if (target !== 'none') {
            const bytes = Uint8Array.from(parts[target]);
            bytes[(bit >> 3) % bytes.length] ^= 1 << (bit & 7);
            parts[target] = bytes;
          }
          const m = target === 'message' ? parts.message : message;
          const native = verifyNative(parts.signature, m, parts.key);
          expect(verifyPortable(parts.signature, m, parts.key)).toBe(native);
          expect(native).toBe(target === 'none');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on random 64-byte signatures and 32-byte keys (nearly all invalid)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (signature, publicKey) => {
        const message = Uint8Array.of(1, 2, 3);
        expect(verifyPortable(signature, message, publicKey)).toBe(verifyNative(signature, message, publicKey));
      }),
      { numRuns: 300 },
    );
  });

  it('on wrong lengths and non-bytes, without throwing', () => {
    const { privateKey, publicKey } = generateKeyPair();
    const message = Uint8Array.of(9);
    const signature = sign(message, privateKey);
    const cases: unknown[][] = [
      [signature.subarray(0, 63), message, publicKey],
      [signature, message, publicKey.subarray(0, 31)],
      [new Uint8Array([...signature, 0]), message, publicKey],
      [Array.from(signature), message, publicKey],
      [signature, 'x', publicKey],
      [signature, message, null],
    ];
    for (const [s, m, k] of cases) {
      const call = (f: typeof verifyNative) => f(s as Uint8Array, m as Uint8Array, k as Uint8Array);
      expect([call(verifyNative), call(verifyPortable)]).toEqual([false, false]);
    }
  });

  it('when the key sits at an offset inside a larger buffer', () => {
    const { privateKey, publicKey } = generateKeyPair();
    const buffer = new Uint8Array(40);
    buffer.set(publicKey, 5);
    const signature = sign(Uint8Array.of(7), privateKey);
    const key = buffer.subarray(5, 37);
    expect([verifyNative(signature, Uint8Array.of(7), key), verifyPortable(signature, Uint8Array.of(7), key)]).toEqual([true, true]);
  });
});

describe('verifyNativeB64KeyAsync and verifyPortableB64Key (signature checked once, key as base64)', () => {
  /** What verifyWithAnyKeyAsync computes per key, by each backend; both must equal verifyNative on the bytes. */
  const perKey = async (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => {
    const b64 = toBase64(publicKey);
    const checked = passesSignaturePolicy(signature, message);
    const native = checked && (await verifyNativeB64KeyAsync(signature, message, b64));
    const portable = checked && verifyPortableB64Key(signature, message, b64);
    return { native, portable, again: checked && (await verifyNativeB64KeyAsync(signature, message, b64)) };
  };

  it('agree with verifyNative on valid signatures, bit flips and random bytes, before and after the key is cached', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom('none', 'signature', 'key', 'random'),
        fc.nat(),
        async (seed, message, target, bit) => {
          let signature = sign(message, seed);
          let publicKey = publicKeyFromPrivate(seed);
          if (target === 'signature' || target === 'key') {
            const bytes = Uint8Array.from(target === 'signature' ? signature : publicKey);
            bytes[(bit >> 3) % bytes.length] ^= 1 << (bit & 7);
            if (target === 'signature') signature = bytes;
            else publicKey = bytes;
          }
          if (target === 'random') [signature, publicKey] = [Uint8Array.from([...seed, ...seed]), seed];
          const expected = verifyNative(signature, message, publicKey);
          expect(await perKey(signature, message, publicKey)).toEqual({ native: expected, portable: expected, again: expected });
          expect(expected).toBe(target === 'none');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuse a malformed key, and a cached key in any spelling but its strict base64', async () => {
    const { privateKey, publicKey } = generateKeyPair();
    const message = Uint8Array.of(5);
    const signature = sign(message, privateKey);
    const b64 = toBase64(publicKey);
    expect([await verifyNativeB64KeyAsync(signature, message, b64), verifyPortableB64Key(signature, message, b64)]).toEqual([true, true]);
    // 32 bytes leave 2 unused bits in the 43rd character: setting one spells the same bytes non-canonically.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const loose = b64.slice(0, 42) + alphabet[alphabet.indexOf(b64[42]) | 1] + '=';
    expect(Buffer.from(loose, 'base64').equals(Buffer.from(publicKey))).toBe(true);
    const spellings = [loose, b64.slice(0, 43), Buffer.from(publicKey).toString('base64url'), ` ${b64}`, '', '%%%', toBase64(new Uint8Array(32)), toBase64(publicKey.subarray(0, 31))];
    for (const bad of spellings) {
      expect([bad, await verifyNativeB64KeyAsync(signature, message, bad), verifyPortableB64Key(signature, message, bad)]).toEqual([bad, false, false]);
    }
  });
});

describe('KeyObjectCache', () => {
  it('keeps at most its capacity, evicting the least recently used key', () => {
    const cache = new KeyObjectCache(2);
    const [a, b, c] = [1, 2, 3].map(() => generateKeyPair().publicKey);
    const first = cache.get(a);
    const bFirst = cache.get(b);
    expect(cache.get(a)).toBe(first); // a is now the most recent
    cache.get(c); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.get(a)).toBe(first);
    const bAgain = cache.get(b);
    expect(bAgain).not.toBe(bFirst); // b was evicted and rebuilt
    expect(bAgain.export({ format: 'jwk' }).x).toBe(Buffer.from(b).toString('base64url'));
    expect(cache.size).toBe(2);
  });

  it('finds a cached key by its standard base64 only, counting as a use', () => {
    const cache = new KeyObjectCache(2);
    const [a, b, c] = [1, 2, 3].map(() => generateKeyPair().publicKey);
    const first = cache.get(a);
    cache.get(b);
    expect(cache.find(toBase64(a))).toBe(first); // a is now the most recent
    expect(cache.find(Buffer.from(a).toString('base64url'))).toBeUndefined();
    expect(cache.find(toBase64(c))).toBeUndefined(); // find never adds
    cache.get(c); // evicts b
    expect([cache.find(toBase64(a)), cache.find(toBase64(b))]).toEqual([first, undefined]);
  });
});
