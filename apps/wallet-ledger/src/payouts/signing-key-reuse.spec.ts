import { isSigningKeyReuse, keyBytesOf } from './signing-key-reuse';

const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 251) & 0xff);
const b64 = Buffer.from(bytes).toString('base64');
const b64url = Buffer.from(bytes).toString('base64url');
const hex = Buffer.from(bytes).toString('hex');

describe('isSigningKeyReuse', () => {
  it.each([
    ['base64', b64],
    ['base64url', b64url],
    ['base64url padded', b64url + '='],
    ['hex', hex],
    ['upper-case hex', hex.toUpperCase()],
  ])('should detect the key written as %s', (_name, address) => {
    expect(isSigningKeyReuse(address, ['AAAA', b64])).toBe(true);
  });

  it('should accept other addresses', () => {
    const other = Buffer.from(bytes.map((b) => b ^ 1)).toString('base64');
    expect(isSigningKeyReuse(other, [b64])).toBe(false);
    expect(isSigningKeyReuse('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', [b64])).toBe(false);
    expect(isSigningKeyReuse(hex.slice(2), [b64])).toBe(false);
  });

  it('should only decode 32-byte values', () => {
    expect(keyBytesOf(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(keyBytesOf(b64)).toEqual(bytes);
  });
});
