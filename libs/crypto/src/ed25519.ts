import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { randomBytes } from 'node:crypto';
import { canonicalBytes } from './canonical-json';
import { verifyBackend, verifyNative, verifyNativeB64KeyAsync, verifyPortable, verifyPortableB64Key } from './ed25519-backends';
import { passesSignaturePolicy } from './ed25519-policy';
import { fromBase64, toBase64 } from './encoding';
import { CryptoFormatError } from './errors';

// @noble/ed25519 v3 ships without a sync SHA-512; wiring one enables the sync sign/verify API.
ed.hashes.sha512 = (message) => sha512(message);

export const PRIVATE_KEY_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 32;
export const SIGNATURE_LENGTH = 64;

function assertLength(bytes: Uint8Array, length: number, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    throw new CryptoFormatError(`${what} must be ${length} bytes`);
  }
}

/** A fresh ed25519 key pair: the 32-byte RFC 8032 seed and its 32-byte public key. */
export function generateKeyPair(): { privateKey: Uint8Array; publicKey: Uint8Array } {
  const privateKey = new Uint8Array(randomBytes(PRIVATE_KEY_LENGTH));
  return { privateKey, publicKey: publicKeyFromPrivate(privateKey) };
}

export function publicKeyFromPrivate(privateKey: Uint8Array): Uint8Array {
  assertLength(privateKey, PRIVATE_KEY_LENGTH, 'private key');
  return ed.getPublicKey(privateKey);
}

/** Deterministic ed25519 signature (64 bytes). Throws CryptoFormatError on a bad key length. */
export function sign(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  assertLength(privateKey, PRIVATE_KEY_LENGTH, 'private key');
  return ed.sign(message, privateKey);
}

const selected = verifyBackend === 'native' ? verifyNative : verifyPortable;
const selectedB64KeyAsync =
  verifyBackend === 'native' ? verifyNativeB64KeyAsync : async (s: Uint8Array, m: Uint8Array, k: string) => verifyPortableB64Key(s, m, k);

/**
 * Strict RFC 8032 verification (policy in ed25519-policy.ts: canonical S, A and R with y < p, no
 * small-order A or R, cofactorless equation). OpenSSL through node:crypto when the runtime has it,
 * else noble; both give the same answer on every input. Returns false, never throws.
 */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return selected(signature, message, publicKey);
}

/** Base64 signature over `canonicalBytes(value)`. */
export function signCanonical(value: unknown, privateKey: Uint8Array): string {
  return toBase64(sign(canonicalBytes(value), privateKey));
}

/**
 * The first of `publicKeysB64` (strict base64) that verifies `signatureB64` (strict base64 of 64
 * bytes) over `message`, or null: also for a malformed signature or key, never rejects. Callers pass
 * only the keys that may sign (an agent's active keys). OpenSSL's check runs on libuv's threadpool
 * so a server's event loop keeps serving meanwhile (the portable backend answers in place).
 * node:crypto copies the data per check, but the loop rereads `message` for each key: do not
 * change it until the promise settles.
 */
export async function verifyWithAnyKeyAsync(signatureB64: string, message: Uint8Array, publicKeysB64: readonly string[]): Promise<string | null> {
  const signature = checkedSignature(signatureB64, message);
  if (signature === null) return null;
  for (const publicKeyB64 of publicKeysB64) {
    // Decodes and checks the key, or finds it cached by this string; a malformed key verifies nothing.
    if (await selectedB64KeyAsync(signature, message, publicKeyB64)) return publicKeyB64;
  }
  return null;
}

/** The decoded signature when it passes its own checks (once per call, not once per key), else null. */
function checkedSignature(signatureB64: string, message: Uint8Array): Uint8Array | null {
  let signature: Uint8Array;
  try {
    signature = fromBase64(signatureB64);
  } catch {
    return null;
  }
  return passesSignaturePolicy(signature, message) ? signature : null;
}

/** False (never throws) for bad base64, wrong lengths, values that cannot be canonicalized. */
export function verifyCanonical(value: unknown, signatureB64: string, publicKeyB64: string): boolean {
  try {
    return verify(fromBase64(signatureB64), canonicalBytes(value), fromBase64(publicKeyB64));
  } catch {
    return false;
  }
}

/** verifyCanonical off the event loop (verifyWithAnyKeyAsync with one key): the same answer. */
export async function verifyCanonicalAsync(value: unknown, signatureB64: string, publicKeyB64: string): Promise<boolean> {
  let message: Uint8Array;
  try {
    message = canonicalBytes(value);
  } catch {
    return false;
  }
  return (await verifyWithAnyKeyAsync(signatureB64, message, [publicKeyB64])) !== null;
}
