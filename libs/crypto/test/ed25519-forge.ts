// Point arithmetic for building the malformed-signature corpus of the ed25519 specs: small-order
// and mixed-order keys, torsion-shifted R, signatures a cofactored verifier accepts and a
// cofactorless one refuses. Built from the curve itself (noble's Point API), not from constants.
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { L, littleEndian as le, numberLE as numLE } from '../src/ed25519-policy';

export { L, P, littleEndian as le, numberLE as numLE } from '../src/ed25519-policy';

export type Point = InstanceType<typeof ed.Point>;
export const { Point } = ed;
export const B = ed.Point.BASE;
export const I = ed.Point.ZERO;

/** [n]p for any n ≥ 0 below the group order (noble refuses n ≥ L). */
export const mul = (p: Point, n: bigint): Point => p.multiply(n, false);

/** A deterministic stream of "random" 64-byte values for reproducible tests. */
export function det(label: string, i: number): Uint8Array {
  return sha512(new TextEncoder().encode(`${label}:${i}`));
}

export const scalar = (label: string, i: number): bigint => (numLE(det(label, i)) % (L - 1n)) + 1n;

/** k = SHA-512(R ‖ A ‖ M) mod L, on the raw encodings. */
export function challenge(r: Uint8Array, a: Uint8Array, message: Uint8Array): bigint {
  return numLE(sha512(ed.etc.concatBytes(r, a, message))) % L;
}

export function signature(r: Uint8Array, s: bigint): Uint8Array {
  return ed.etc.concatBytes(r, le(s));
}

/** [L]Q of any curve point Q lies in the torsion subgroup; find one of order 8, then its 8 multiples. */
export function torsionSubgroup(): Point[] {
  for (let i = 0; ; i++) {
    const bytes = det('torsion', i).slice(0, 32);
    bytes[31] &= 0x7f;
    let q: Point;
    try {
      q = ed.Point.fromBytes(bytes, false);
    } catch {
      continue;
    }
    const t = mul(q, L - 1n).add(q);
    if (!mul(t, 4n).is0()) return [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n].map((n) => mul(t, n));
  }
}

/** A signature by a key of secret `a` (A's bytes given, possibly with torsion) over `message` with nonce point R. */
export function signWith(a: bigint, aBytes: Uint8Array, rPoint: Point, rScalar: bigint, message: Uint8Array): Uint8Array {
  const r = rPoint.toBytes();
  return signature(r, (rScalar + challenge(r, aBytes, message) * a) % L);
}

/**
 * A signature that the cofactorless equation [S]B − [k]A = R accepts for a public key A we hold no
 * secret for (small-order or mixed-order A = [a]B + T, any spelling `aBytes`): try R = [r]B − Tj over the torsion points Tj
 * until [k]T_A = Tj, which holds for one j in eight on average.
 */
export function forgeCofactorless(a: bigint, aBytes: Uint8Array, torsionOfA: Point, message: Uint8Array, label: string): Uint8Array {
  const torsion = torsionSubgroup();
  for (let i = 0; ; i++) {
    const r = scalar(label, i);
    for (const tj of torsion) {
      const rPoint = mul(B, r).subtract(tj);
      const rBytes = rPoint.toBytes();
      const k = challenge(rBytes, aBytes, message);
      if (!mul(torsionOfA, k).equals(tj)) continue;
      return signature(rBytes, (r + k * a) % L);
    }
  }
}
