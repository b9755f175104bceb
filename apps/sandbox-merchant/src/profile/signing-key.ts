import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';

// The merchant's P-256 signing key (ES256): from MERCHANT_SIGNING_KEY (private JWK JSON or PEM)
// or, in sandbox only, generated at start. Its public JWK is published in the profile.

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  /** Public JWK as listed in `signing_keys` (kid, kty, crv, x, y, use, alg). */
  publicJwk: { kid: string; kty: 'EC'; crv: 'P-256'; x: string; y: string; use: 'sig'; alg: 'ES256' };
}

export function parsePrivateKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('{')
    ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' })
    : createPrivateKey(trimmed);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('MERCHANT_SIGNING_KEY must be a P-256 (ES256) private key');
  }
  return key;
}

/** RFC 7638 JWK thumbprint (base64url SHA-256 of the required members in lexical order). */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

export function signingKey(privateKey: KeyObject, kid?: string): SigningKey {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string; y: string };
  const base = { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x, y: jwk.y };
  const id = kid ?? `sandbox-merchant-${jwkThumbprint(base).slice(0, 16)}`;
  return { kid: id, privateKey, publicJwk: { kid: id, ...base, use: 'sig', alg: 'ES256' } };
}

export function loadSigningKey(options: { key?: string; kid?: string; allowGenerated: boolean }): SigningKey {
  if (options.key) return signingKey(parsePrivateKey(options.key), options.kid);
  if (!options.allowGenerated) throw new Error('MERCHANT_SIGNING_KEY is required outside sandbox');
  return signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, options.kid);
}
