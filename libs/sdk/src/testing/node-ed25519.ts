// Independent ed25519/sha256 via node:crypto (OpenSSL), so tests do not check @exchange/crypto
// against itself.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function nodeVerify(message: string | Uint8Array, signatureB64: string, publicKey: Uint8Array | string): boolean {
  const x = (typeof publicKey === 'string' ? Buffer.from(publicKey, 'base64') : Buffer.from(publicKey)).toString('base64url');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  return verify(null, Buffer.from(message), key, Buffer.from(signatureB64, 'base64'));
}

/** The public key OpenSSL derives from a 32-byte seed, standard base64. */
export function nodePublicKeyFromSeed(seed: Uint8Array): string {
  const priv = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(priv).export({ format: 'jwk' });
  return Buffer.from(jwk.x as string, 'base64url').toString('base64');
}

/** A key pair made by OpenSSL: the raw seed and public key. */
export function nodeKeyPair(): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const pubJwk = publicKey.export({ format: 'jwk' });
  return {
    privateKey: new Uint8Array(Buffer.from(jwk.d as string, 'base64url')),
    publicKey: new Uint8Array(Buffer.from(pubJwk.x as string, 'base64url')),
  };
}

export const nodeSha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
