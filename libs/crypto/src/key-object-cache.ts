import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * A node:crypto KeyObject for a raw 32-byte ed25519 public key. No policy check (see
 * passesKeyPolicy / isValidPublicKey); throws when node:crypto refuses the bytes. Imported as a
 * JWK (RFC 8037 OKP): the same raw key OpenSSL gets from the DER SubjectPublicKeyInfo, at ~10 µs
 * instead of ~80 µs, which is most of a first verification (a registration's new key, a cache miss).
 */
export function ed25519PublicKeyObject(publicKey: Uint8Array): KeyObject {
  const x = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

/**
 * Bounded LRU of node:crypto KeyObjects by raw public key: createPublicKey imports and allocates
 * an OpenSSL key on every call, a share of one verification worth keeping for the next. Entries are
 * keyed by the key's standard base64, the one spelling strict base64 (fromBase64) accepts for it,
 * so a caller holding that string can find the entry without decoding it (`find`).
 */
export class KeyObjectCache {
  private readonly entries = new Map<string, KeyObject>();

  constructor(private readonly capacity = 1024) {}

  get size(): number {
    return this.entries.size;
  }

  get(publicKey: Uint8Array): KeyObject {
    const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64');
    const hit = this.find(id);
    if (hit) return hit;
    const key = ed25519PublicKeyObject(publicKey);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, key);
    return key;
  }

  /** The KeyObject of the key whose standard base64 is `publicKeyB64`, if `get` cached it. */
  find(publicKeyB64: string): KeyObject | undefined {
    const hit = this.entries.get(publicKeyB64);
    if (hit) {
      // Re-insert so Map order stays least-recently-used first.
      this.entries.delete(publicKeyB64);
      this.entries.set(publicKeyB64, hit);
    }
    return hit;
  }
}
