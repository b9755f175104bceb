import { createHash } from 'node:crypto';

/**
 * Deterministic uniform numbers in [0, 1) from a request id: the i-th draw is the first 48 bits
 * of sha256(sha256(request_id) ‖ i). The same request id always draws the same sequence.
 */
export function seededRandom(requestId: string): () => number {
  const seed = createHash('sha256').update(requestId, 'utf8').digest();
  let i = 0;
  return () => {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(i++);
    const block = createHash('sha256').update(seed).update(counter).digest();
    return block.readUIntBE(0, 6) / 2 ** 48;
  };
}

/** `n` distinct items drawn without replacement (a partial Fisher–Yates shuffle over a copy). */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const pool = [...items];
  const take = Math.min(n, pool.length);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, take);
}
