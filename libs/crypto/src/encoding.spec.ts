import fc from 'fast-check';
import { fromBase64, fromBase64Url, sha256, sha256Hex, toBase64 } from './encoding';
import { CryptoFormatError } from './errors';

describe('sha256', () => {
  // FIPS 180-2 / NIST example values.
  it('should hash "" and "abc" to the published digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(Buffer.from(sha256(new TextEncoder().encode('abc'))).toString('hex')).toBe(sha256Hex('abc'));
    expect(sha256('abc')).toHaveLength(32);
  });
});

describe('base64', () => {
  it.each([
    [[], ''],
    [[0], 'AA=='],
    [[0, 0], 'AAA='],
    [[0, 0, 0], 'AAAA'],
    [[0xfb, 0xff], '+/8='],
  ])('should encode %j as %j (standard, padded)', (bytes, text) => {
    expect(toBase64(Uint8Array.from(bytes))).toBe(text);
    expect(Array.from(fromBase64(text))).toEqual(bytes);
  });

  it('should encode a view of a larger buffer without its neighbours', () => {
    const backing = Uint8Array.from([1, 2, 3, 4, 5]);
    expect(toBase64(backing.subarray(1, 3))).toBe(Buffer.from([2, 3]).toString('base64'));
  });

  it('should round-trip any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(Array.from(fromBase64(toBase64(bytes)))).toEqual(Array.from(bytes));
      }),
    );
  });

  it.each([
    ['missing padding', 'AA'],
    ['short padding', 'AA='],
    ['too much padding', 'AAA=='],
    ['only padding', '===='],
    ['padding in the middle', 'AA==AAAA'],
    ['non-zero unused bits', 'AB=='],
    ['non-zero unused bits (one pad)', 'AAB='],
    ['url-safe characters', '-_8='],
    ['leading space', ' AAAA'],
    ['trailing newline', 'AAAA\n'],
    ['inner whitespace', 'AA AA'],
    ['other symbol', 'A*AA'],
    ['length 5', 'AAAAA'],
  ])('should reject %s', (_label, text) => {
    expect(() => fromBase64(text)).toThrow(CryptoFormatError);
  });

  it('should reject non-strings', () => {
    expect(() => fromBase64(undefined as unknown as string)).toThrow(CryptoFormatError);
  });
});

describe('fromBase64Url', () => {
  it('should decode with or without padding', () => {
    expect(Array.from(fromBase64Url('-_8'))).toEqual([0xfb, 0xff]);
    expect(Array.from(fromBase64Url('-_8='))).toEqual([0xfb, 0xff]);
    expect(Array.from(fromBase64Url(''))).toEqual([]);
  });

  it.each(['+/8=', 'A', 'AA=A', 'AB', 'A A'])('should reject %j', (text) => {
    expect(() => fromBase64Url(text)).toThrow(CryptoFormatError);
  });
});
