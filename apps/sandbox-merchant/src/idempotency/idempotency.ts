import { createHash } from 'node:crypto';

// Idempotency-Key handling (ucp-digest §3): a key seen with the same operation and body returns
// the stored answer; with another operation or body it is a conflict (409). Keys live 24 h.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

export type IdempotencyLookup = { kind: 'new' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'conflict' };

interface Entry {
  fingerprint: string;
  answer: StoredAnswer;
  storedAt: number;
}

/** What makes two requests "the same": operation (method + path) and the raw body bytes. */
export function fingerprint(operation: string, body: string | Buffer | undefined): string {
  return createHash('sha256').update(operation).update('\n').update(body ?? '').digest('hex');
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = IDEMPOTENCY_TTL_MS,
  ) {}

  lookup(key: string, print: string): IdempotencyLookup {
    this.prune();
    const entry = this.entries.get(key);
    if (!entry) return { kind: 'new' };
    return entry.fingerprint === print ? { kind: 'replay', answer: entry.answer } : { kind: 'conflict' };
  }

  remember(key: string, print: string, answer: StoredAnswer): void {
    this.entries.set(key, { fingerprint: print, answer, storedAt: this.now() });
  }

  get size(): number {
    return this.entries.size;
  }

  private prune(): void {
    const cutoff = this.now() - this.ttlMs;
    // Map keeps insertion order, so the oldest entries come first.
    for (const [key, entry] of this.entries) {
      if (entry.storedAt > cutoff) break;
      this.entries.delete(key);
    }
  }
}
