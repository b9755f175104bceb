// The two ed25519 verification backends behind verify() and verifyWithAnyKeyAsync() (ed25519.ts).
// Exported from this module for tests and the benchmark only; callers use those two.
//
// Both run the policy of ed25519-policy.ts first (the *B64Key entry points its key part, their
// caller having run the signature part), then the same cofactorless RFC 8032 check:
// encode [S]B − [k]A, k = SHA-512(R ‖ A ‖ M) mod L, and compare it byte for byte with R. That is
// what OpenSSL does; noble's own verify() uses the cofactored equation [8]([S]B − R − [k]A) = 0,
// which also accepts R or A with a torsion component added, so the portable path does not call it.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { verify as opensslVerify, type KeyObject } from 'node:crypto';
import { L, numberLE, passesKeyPolicy, passesVerifyPolicy } from './ed25519-policy';
import { fromBase64 } from './encoding';
import { KeyObjectCache } from './key-object-cache';

/** Only ever given keys that passed passesKeyPolicy, so a hit by base64 (`find`) stands for it. */
const keyObjects = new KeyObjectCache(1024);

/** OpenSSL through node:crypto, with KeyObjects cached per public key. */
export function verifyNative(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!passesVerifyPolicy(signature, message, publicKey)) return false;
  try {
    return opensslVerify(null, message, keyObjects.get(publicKey), signature);
  } catch {
    return false;
  }
}

/** Pure JavaScript (noble's point arithmetic): for runtimes without ed25519 in node:crypto. */
export function verifyPortable(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return passesVerifyPolicy(signature, message, publicKey) && portableEquation(signature, message, publicKey);
}

/**
 * The two backends for a signature that already passed passesSignaturePolicy with `message`, and
 * a key as strict base64 (malformed: false): verifyWithAnyKeyAsync checks the signature once, then
 * tries it with each key. The native one finds a key it verified with before by that string, one
 * spelling per key, skipping its decoding and policy check, and runs OpenSSL's check on libuv's
 * threadpool (node:crypto's callback form): the ~100 µs it takes leave the event loop, which in the
 * gateway verifies every agent-signed request on one thread.
 */
export function verifyNativeB64KeyAsync(signature: Uint8Array, message: Uint8Array, publicKeyB64: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const key = nativeKeyOf(publicKeyB64);
      if (key === null) return resolve(false);
      opensslVerify(null, message, key, signature, (err, valid) => resolve(err === null && valid === true));
    } catch {
      resolve(false);
    }
  });
}

/** The cached KeyObject of a strict-base64 key, imported once it passes the key policy; null when it does not. Throws on bad base64. */
function nativeKeyOf(publicKeyB64: string): KeyObject | null {
  const cached = keyObjects.find(publicKeyB64);
  if (cached) return cached;
  const publicKey = fromBase64(publicKeyB64);
  return passesKeyPolicy(publicKey) ? keyObjects.get(publicKey) : null;
}

export function verifyPortableB64Key(signature: Uint8Array, message: Uint8Array, publicKeyB64: string): boolean {
  let publicKey: Uint8Array;
  try {
    publicKey = fromBase64(publicKeyB64);
  } catch {
    return false;
  }
  return passesKeyPolicy(publicKey) && portableEquation(signature, message, publicKey);
}

/** [S]B − [k]A encodes to R, for inputs that passed the policy. */
function portableEquation(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    const A = ed.Point.fromBytes(publicKey, false); // throws when y has no square root
    const r = signature.subarray(0, 32);
    const s = numberLE(signature.subarray(32, 64));
    const k = numberLE(sha512(ed.etc.concatBytes(r, publicKey, message))) % L;
    const expected = ed.Point.BASE.multiply(s, false).subtract(A.multiply(k, false)).toBytes();
    for (let i = 0; i < 32; i++) if (expected[i] !== r[i]) return false;
    return true;
  } catch {
    return false;
  }
}

// RFC 8032 §7.1 TEST 1 (empty message), to tell whether this runtime's node:crypto has ed25519.
const PROBE_KEY = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
const PROBE_SIG = Buffer.from(
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  'hex',
);

function nativeWorks(): boolean {
  try {
    const probe = new KeyObjectCache(1);
    const empty = new Uint8Array(0);
    return opensslVerify(null, empty, probe.get(PROBE_KEY), PROBE_SIG) && !opensslVerify(null, Uint8Array.of(0), probe.get(PROBE_KEY), PROBE_SIG);
  } catch {
    return false;
  }
}

/** Which backend verify() uses in this process. */
export const verifyBackend: 'native' | 'portable' = nativeWorks() ? 'native' : 'portable';
