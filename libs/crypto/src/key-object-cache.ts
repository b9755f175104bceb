import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * A node:crypto KeyObject for a raw 32-byte ed25519 public key. No policy check (see
 * passesKeyPolicy / isValidPublicKey); throws when node:crypto refuses the bytes. Imported as a
 * JWK (RFC 8037 OKP): the same raw key OpenSSL gets from the DER SubjectPublicKeyInfo, at ~10 µs
 * instead of ~80 µs, which is most of a first verification (a registration's new key, a cache miss).
 */
export function ed25519PublicKeyObject(publicKey: Uint8Array): KeyObject {
  return keyObjectFromBase64url(Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64url'));
}

const keyObjectFromBase64url = (x: string): KeyObject => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });

/**
 * Bounded LRU of node:crypto KeyObjects by raw public key: createPublicKey imports and allocates
 * an OpenSSL key on every call, a share of one verification worth keeping for the next.
 */
export class KeyObjectCache {
  private readonly entries = new Map<string, KeyObject>();

  constructor(private readonly capacity = 1024) {}

  get size(): number {
    return this.entries.size;
  }

  get(publicKey: Uint8Array): KeyObject {
    // The JWK's `x` doubles as the cache id: one encoding per lookup.
    const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64url');
    const hit = this.entries.get(id);
    if (hit) {
      // Re-insert so Map order stays least-recently-used first.
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit;
    }
    const key = keyObjectFromBase64url(id);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, key);
    return key;
  }
}
