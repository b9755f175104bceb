import { createPrivateKey, createPublicKey, createSecretKey, KeyObject, type JsonWebKey } from 'node:crypto';
import { ed25519PublicKeyObject, passesKeyPolicy } from '@exchange/crypto';

/** RFC 9421 §3.3 algorithm names this library signs and verifies with. */
export type SignatureAlgorithm = 'ecdsa-p256-sha256' | 'ecdsa-p384-sha384' | 'ed25519' | 'hmac-sha256';

export const ALL_ALGORITHMS: readonly SignatureAlgorithm[] = ['ecdsa-p256-sha256', 'ecdsa-p384-sha384', 'ed25519', 'hmac-sha256'];

/** A key as callers hold it: a node KeyObject, or a JWK (a UCP profile's `signing_keys[]` entry). */
export type KeyInput = KeyObject | JsonWebKey;

// JOSE `alg` of a JWK → the RFC 9421 name, to refuse a JWK whose alg contradicts its curve.
const JOSE_ALG: Record<string, SignatureAlgorithm> = {
  ES256: 'ecdsa-p256-sha256',
  ES384: 'ecdsa-p384-sha384',
  EdDSA: 'ed25519',
  Ed25519: 'ed25519',
  HS256: 'hmac-sha256',
};

/**
 * A KeyObject from a KeyObject or JWK. `use: 'private'` keeps private JWKs private (for signing);
 * otherwise a private JWK is reduced to its public half. Throws on anything unusable.
 */
export function toKeyObject(key: KeyInput, use: 'sign' | 'verify'): KeyObject {
  if (key instanceof KeyObject) return use === 'verify' ? checkedVerificationKey(key) : key;
  if (typeof key !== 'object' || key === null) throw new Error('key is neither a KeyObject nor a JWK');
  if (key.kty === 'oct') {
    if (typeof key.k !== 'string' || !key.k) throw new Error('oct JWK without k');
    return createSecretKey(Buffer.from(key.k, 'base64url'));
  }
  const object = use === 'sign' ? createPrivateKey({ key, format: 'jwk' }) : createPublicKey({ key, format: 'jwk' });
  const alg = typeof key.alg === 'string' ? key.alg : undefined;
  if (alg !== undefined && JOSE_ALG[alg] !== algorithmOf(object)) throw new Error(`JWK alg ${alg} does not fit its key type`);
  return use === 'verify' ? checkedVerificationKey(object) : object;
}

/**
 * OpenSSL verifies against any 32 bytes that decode, and a small-order key (or y ≥ p) lets one
 * forged signature pass for every message; the key checks of the exchange's ed25519 policy
 * (passesKeyPolicy, libs/crypto README: byte comparisons, cheap enough per verification) refuse
 * such keys, as verify() does. Other key types pass through unchanged.
 */
export function checkedVerificationKey(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') return key;
  if (!passesKeyPolicy(ed25519RawPublicKey(key))) throw new Error('ed25519 key is a small-order or non-canonical point');
  return key;
}

/** The one RFC 9421 algorithm a key can be used with, or null (RSA and other curves are not offered). */
export function algorithmOf(key: KeyObject): SignatureAlgorithm | null {
  if (key.type === 'secret') return 'hmac-sha256';
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ecdsa-p256-sha256';
    if (curve === 'secp384r1') return 'ecdsa-p384-sha384';
  }
  return null;
}

// PKCS#8 prefix of a raw ed25519 seed (RFC 8410), so a raw 32-byte seed loads into node:crypto.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function ed25519PrivateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new Error('ed25519 seed must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function ed25519PublicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new Error('ed25519 public key must be 32 bytes');
  if (!passesKeyPolicy(raw)) throw new Error('ed25519 key is a small-order or non-canonical point');
  return ed25519PublicKeyObject(raw);
}

export function ed25519RawPublicKey(key: KeyObject): Buffer {
  // createPublicKey derives the public half of a private key but refuses a public KeyObject.
  const spki = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32); // the raw key ends the SPKI (RFC 8410)
}
