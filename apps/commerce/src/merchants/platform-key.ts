import { createECDH, createPrivateKey, hkdfSync, type KeyObject } from 'node:crypto';
import { canonicalize, sha256Hex } from '@exchange/crypto';
import { ConfigError } from '@exchange/platform';
import type { PlatformIdentity } from './platform-identity.model';

// The exchange's UCP platform key (P-256, ES256): given as COMMERCE_PLATFORM_KEY, or derived from
// the exchange ed25519 seed so that every process of one exchange signs with the same key without
// a second secret to distribute. Pure (no I/O).

export interface PlatformKey {
  keyId: string;
  publicJwk: PlatformIdentity['publicJwk'];
  privateKey: KeyObject;
}

export const PLATFORM_KEY_INFO = 'agent-exchange commerce platform P-256';
const VARIABLE = 'COMMERCE_PLATFORM_KEY';
// Order of the P-256 group (FIPS 186-4 D.1.2.3).
const P256_N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** `exchange-platform-` + 16 hex of sha256(canonical public JWK {crv, kty, x, y}). */
export function derivedKeyId(x: string, y: string): string {
  return `exchange-platform-${sha256Hex(canonicalize({ crv: 'P-256', kty: 'EC', x, y })).slice(0, 16)}`;
}

function publicJwkOf(kid: string, x: string, y: string): PlatformIdentity['publicJwk'] {
  return { kid, kty: 'EC', crv: 'P-256', x, y, use: 'sig', alg: 'ES256' };
}

/** The public point d·G of a 32-byte P-256 scalar (throws when d is not in 1..n−1). */
function pointOf(d: Buffer): { x: string; y: string } {
  if (d.length !== 32) throw new Error('d must be 32 bytes');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 ‖ x ‖ y
  return { x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
}

/**
 * HKDF-SHA256(seed, info) → 48 bytes → d = (v mod (n−1)) + 1, the FIPS 186-4 B.4.1 reduction: the
 * 128 extra bits make the bias negligible and d is always a valid scalar in 1..n−1.
 */
export function derivePlatformKey(exchangeSeed: Uint8Array): PlatformKey {
  if (exchangeSeed.length !== 32) throw new Error('the exchange signing key must be a 32-byte ed25519 seed');
  const okm = Buffer.from(hkdfSync('sha256', exchangeSeed, Buffer.alloc(0), PLATFORM_KEY_INFO, 48));
  const d = (BigInt(`0x${okm.toString('hex')}`) % (P256_N - 1n)) + 1n;
  const dBytes = Buffer.from(d.toString(16).padStart(64, '0'), 'hex');
  const { x, y } = pointOf(dBytes);
  const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: dBytes.toString('base64url') }, format: 'jwk' });
  const keyId = derivedKeyId(x, y);
  return { keyId, publicJwk: publicJwkOf(keyId, x, y), privateKey };
}

/** COMMERCE_PLATFORM_KEY: a P-256 private JWK (JSON text) with a `kid`. Throws ConfigError naming the variable. */
export function parsePlatformKey(text: string): PlatformKey {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw new ConfigError(VARIABLE, 'is not JSON (expected a P-256 private JWK with kid)');
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new ConfigError(VARIABLE, 'must be a JSON object (a P-256 private JWK)');
  const { kid, kty, crv, d } = jwk as Record<string, unknown>;
  if (typeof kid !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(kid)) throw new ConfigError(VARIABLE, 'needs a "kid" of 1–128 printable ASCII characters');
  if (kty !== 'EC' || crv !== 'P-256') throw new ConfigError(VARIABLE, 'must be an EC P-256 key (kty "EC", crv "P-256")');
  if (typeof d !== 'string' || d.length === 0) throw new ConfigError(VARIABLE, 'must be a private key (no "d")');
  // node takes x/y from the JWK as given: recompute the point from d and insist they agree.
  let point: { x: string; y: string };
  let privateKey: KeyObject;
  try {
    point = pointOf(Buffer.from(d, 'base64url'));
    privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d, ...point }, format: 'jwk' });
  } catch (err) {
    throw new ConfigError(VARIABLE, `is not a usable P-256 private JWK (${err instanceof Error ? err.message : 'invalid'})`);
  }
  const given = jwk as { x?: unknown; y?: unknown };
  if ((given.x !== undefined && given.x !== point.x) || (given.y !== undefined && given.y !== point.y)) {
    throw new ConfigError(VARIABLE, 'x/y do not belong to its private key d');
  }
  return { keyId: kid, publicJwk: publicJwkOf(kid, point.x, point.y), privateKey };
}
