import { contentSha256 } from '@exchange/casefile';
import { sha256Hex } from '@exchange/crypto';

// Evidence of a checkout session is a hash chain (README "Evidence"): item n's hash is
// sha256(prev_hash_hex || content_sha256_hex) over ASCII hex, the first prev_hash is 64 zeros, and
// content_sha256 is the sha256 of the canonical JSON (RFC 8785) of the recorded content. Anyone
// holding the items recomputes it; the session keeps the head.

export const GENESIS_HASH = '0'.repeat(64);

export interface ChainLink {
  seq: number;
  contentSha256: string;
  prevHash: string;
  hash: string;
}

/** sha256 of the canonical JSON: the same digest a casefile record entry carries. */
export const contentHash: (content: unknown) => string = contentSha256;

export function linkHash(prevHash: string, contentSha256: string): string {
  return sha256Hex(prevHash + contentSha256);
}

/** The next link after `head` (seq of the last item, 0 when none). */
export function nextLink(head: { seq: number; hash: string }, content: unknown): ChainLink {
  const contentSha256 = contentHash(content);
  return { seq: head.seq + 1, contentSha256, prevHash: head.hash, hash: linkHash(head.hash, contentSha256) };
}

/** Whether the items (in seq order, from seq 1) recompute to their stored hashes, and the head they reach. */
export function verifyChain(items: Array<{ seq: number; content: unknown; contentSha256: string; prevHash: string; hash: string }>): {
  valid: boolean;
  head: string;
  brokenAt?: number;
} {
  let prev = GENESIS_HASH;
  for (const [i, item] of items.entries()) {
    const expected = contentHash(item.content);
    if (item.seq !== i + 1 || item.prevHash !== prev || item.contentSha256 !== expected || item.hash !== linkHash(prev, expected)) {
      return { valid: false, head: prev, brokenAt: item.seq };
    }
    prev = item.hash;
  }
  return { valid: true, head: prev };
}
