// The one strict ed25519 input policy, checked on raw bytes before either verification backend
// runs. OpenSSL (node:crypto) alone accepts a public key with y ≥ p, the "negative zero" x = 0 with
// the sign bit set and small-order keys (the identity key verifies any message with R = I, S = 0);
// noble's strict mode refuses them. Refusing them here, for A and for R, leaves only inputs both
// backends decode the same way; the backends then compute the same cofactorless equation (see
// ed25519-backends.ts), so a signature valid for one is valid for the other.

/** Group order L = 2^252 + 27742317777372353535851937790883648493. */
export const L = 0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3edn;

/** Field prime p = 2^255 − 19. */
export const P = 0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffedn;

/** `value` (0 ≤ value < 2^256) as 32 little-endian bytes, the encoding of scalars and field elements. */
export function littleEndian(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, value >>= 8n) out[i] = Number(value & 0xffn);
  return out;
}

/** The unsigned little-endian number in `bytes` (any length). */
export function numberLE(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

const L_LE = littleEndian(L);
const P_LE = littleEndian(P);

/**
 * y-coordinates of the 8 small-order points (sign bit cleared): y = 0 (the two points of order 4),
 * y = 1 (identity), y = p − 1 (order 2) and ±y8 (the four points of order 8). With the sign bit set,
 * y = 1 and y = p − 1 are the "negative zero" spellings of x = 0, so matching on y alone refuses
 * those too. ed25519-policy.spec.ts derives this set from the curve instead of trusting it.
 */
const SMALL_ORDER_Y_LE: readonly Uint8Array[] = [
  0n,
  1n,
  0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffecn,
  0x05fc536d880238b13933c6d305acdfd5f098eff289f4c345b027b2c28f95e826n,
  0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7n,
].map(littleEndian);

/** a < b for 32-byte little-endian numbers, ignoring bit 255 of `a` when `maskTop`. */
function lessThan(a: Uint8Array, offset: number, b: Uint8Array, maskTop: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const byte = i === 31 && maskTop ? a[offset + i] & 0x7f : a[offset + i];
    if (byte !== b[i]) return byte < b[i];
  }
  return false;
}

function sameY(a: Uint8Array, offset: number, y: Uint8Array): boolean {
  if ((a[offset + 31] & 0x7f) !== y[31]) return false;
  for (let i = 0; i < 31; i++) if (a[offset + i] !== y[i]) return false;
  return true;
}

/** S (bytes 32..63 of a signature) is canonical: S < L. */
export function isCanonicalScalar(signature: Uint8Array): boolean {
  return lessThan(signature, 32, L_LE, false);
}

/**
 * The 32 bytes at `offset` are an acceptable point encoding: y < p (one spelling per point) and not
 * a small-order point or negative zero. Whether y is on the curve at all is left to the backends,
 * which both refuse it the same way (no square root).
 */
export function isAcceptablePointEncoding(bytes: Uint8Array, offset = 0): boolean {
  if (!lessThan(bytes, offset, P_LE, true)) return false;
  for (const y of SMALL_ORDER_Y_LE) if (sameY(bytes, offset, y)) return false;
  return true;
}

/**
 * The policy's checks on a public key A alone: 32 bytes with an acceptable point encoding. Byte
 * comparisons only (no point decompression), so cheap enough for every verification; whether A is
 * on the curve is left to verification, which fails for a non-point (isValidPublicKey checks it).
 */
export function passesKeyPolicy(publicKey: unknown): publicKey is Uint8Array {
  return publicKey instanceof Uint8Array && publicKey.length === 32 && isAcceptablePointEncoding(publicKey);
}

/**
 * The policy's checks that do not involve the key: a 64-byte signature with canonical S and an
 * acceptable R encoding, over a byte message. Split from the key's so a signature tried against
 * several keys (verifyWithAnyKeyAsync) is checked once.
 */
export function passesSignaturePolicy(signature: unknown, message: unknown): signature is Uint8Array {
  return (
    signature instanceof Uint8Array &&
    signature.length === 64 &&
    message instanceof Uint8Array &&
    isCanonicalScalar(signature) &&
    isAcceptablePointEncoding(signature, 0)
  );
}

/** Lengths, canonical S, and acceptable A and R encodings. Anything else verifies as false. */
export function passesVerifyPolicy(signature: unknown, message: unknown, publicKey: unknown): boolean {
  return passesSignaturePolicy(signature, message) && passesKeyPolicy(publicKey);
}
