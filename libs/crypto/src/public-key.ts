import * as ed from '@noble/ed25519';
import { passesKeyPolicy } from './ed25519-policy';

/**
 * A key worth registering: 32 bytes, y < p, not small-order (the checks verify() makes) and on the
 * curve. Torsion is not checked: it costs a full scalar multiplication (~35× this) and is harmless,
 * since both verify() backends use the cofactorless equation. Every key [a]B of an honest keygen passes.
 */
export function isValidPublicKey(publicKey: Uint8Array): boolean {
  if (!passesKeyPolicy(publicKey)) return false;
  try {
    ed.Point.fromBytes(publicKey, false);
    return true;
  } catch {
    return false; // y has no square root: not a curve point
  }
}
