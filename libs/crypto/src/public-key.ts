import * as ed from '@noble/ed25519';
import { isAcceptablePointEncoding } from './ed25519-policy';

/**
 * A key worth registering: 32 bytes, y < p, on the curve, not small-order, and in the prime-order
 * subgroup. verify() already refuses all but the last (torsion costs a full scalar multiplication
 * per key, too much per request); a key [a]B made by any honest keygen passes.
 */
export function isValidPublicKey(publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32 || !isAcceptablePointEncoding(publicKey)) return false;
  try {
    return ed.Point.fromBytes(publicKey, false).isTorsionFree();
  } catch {
    return false;
  }
}
