import { OutageLatch } from '@exchange/platform';
import { AGENT_SIGNATURE_WINDOW_SECONDS } from './agent-signature';

// Replay protection for agent-signed requests (DESIGN §3, X-Agent-Nonce): a nonce is accepted
// once per agent for as long as its timestamp is inside the ±300 s window; after that the
// timestamp check refuses the request anyway, so the nonce can be forgotten.

/** Records a key once: `true` the first time, `false` while it is remembered. */
export interface NonceStore {
  claim(key: string, ttlMs: number): Promise<boolean>;
}

/** The memory store holds this many unexpired nonces at most (full → `unavailable`). */
export const MEMORY_NONCE_CAPACITY = 1_000_000;

export class NonceStoreFullError extends Error {
  constructor() {
    super('the nonce store is full');
  }
}

/**
 * Seen nonces of one gateway process, bounded and expiring. Keys are bucketed by the second they
 * expire in, so forgetting costs only the expired entries.
 */
export class MemoryNonceStore implements NonceStore {
  private readonly expiries = new Map<string, number>();
  private readonly buckets = new Map<number, string[]>();
  private swept: number;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly capacity = MEMORY_NONCE_CAPACITY,
  ) {
    this.swept = Math.floor(now() / 1000);
  }

  get size(): number {
    return this.expiries.size;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const nowMs = this.now();
    this.sweep(Math.floor(nowMs / 1000));
    const known = this.expiries.get(key);
    if (known !== undefined && known * 1000 > nowMs) return false;
    if (this.expiries.size >= this.capacity) throw new NonceStoreFullError();
    // Rounded up to a whole second: a nonce is never forgotten early.
    const expiresAt = Math.ceil((nowMs + ttlMs) / 1000);
    this.expiries.set(key, expiresAt);
    const bucket = this.buckets.get(expiresAt);
    if (bucket) bucket.push(key);
    else this.buckets.set(expiresAt, [key]);
    return true;
  }

  private sweep(nowSecond: number): void {
    // Buckets are at most ~600 s ahead, so walking the seconds since the last sweep is cheap;
    // after a long idle gap the buckets themselves are walked instead.
    if (nowSecond - this.swept > 2 * AGENT_SIGNATURE_WINDOW_SECONDS + 2) {
      for (const second of [...this.buckets.keys()]) if (second <= nowSecond) this.drop(second);
    } else {
      for (let second = this.swept + 1; second <= nowSecond; second++) this.drop(second);
    }
    this.swept = Math.max(this.swept, nowSecond);
  }

  private drop(second: number): void {
    const keys = this.buckets.get(second);
    if (!keys) return;
    this.buckets.delete(second);
    for (const key of keys) if (this.expiries.get(key) === second) this.expiries.delete(key);
  }
}

export type NonceVerdict = 'fresh' | 'reused' | 'unavailable';

export interface ReplayGuardOptions {
  /** Shared store (Redis) when configured, else the memory store. */
  store: NonceStore;
  /**
   * Used for safe methods when the shared store fails (per-process protection while Redis is
   * down); mutations fail closed instead. Absent when `store` is already the memory store.
   */
  fallback?: NonceStore;
  now?: () => number;
  /** The shared store failed after working (or at the first claim): once per outage. */
  onStoreDown?: (err: unknown) => void;
  /** The shared store answered again after `onStoreDown`. */
  onStoreUp?: () => void;
  /** A memory store (the store or the fallback) is full: once until a claim succeeds again. */
  onStoreFull?: () => void;
}

export class ReplayGuard {
  private readonly now: () => number;
  // Every claim fails while the store is down (or full): reporting each would flood the log, one
  // line per request, so only the changes are reported.
  private readonly storeDown: OutageLatch;
  private readonly storeFull: OutageLatch;

  constructor(private readonly opts: ReplayGuardOptions) {
    this.now = opts.now ?? Date.now;
    this.storeDown = new OutageLatch((err) => opts.onStoreDown?.(err), () => opts.onStoreUp?.());
    this.storeFull = new OutageLatch(() => opts.onStoreFull?.());
  }

  /**
   * Claims `nonce` for `agentId`. Call only once the signature verified, so a forger cannot use
   * up a victim's nonces. `timestamp` has already passed the window check.
   */
  async claim(input: { agentId: string; nonce: string; timestamp: string; mutation: boolean }): Promise<NonceVerdict> {
    const key = `${input.agentId} ${input.nonce}`;
    // Remembered until the timestamp leaves the window (+1 s for the second's rounding).
    const ttlMs = Math.max(1000, (Number(input.timestamp) + AGENT_SIGNATURE_WINDOW_SECONDS + 1) * 1000 - this.now());
    // Numbered, so a claim sent before a failure was noticed, answered late, ends neither outage.
    const attempt = this.storeDown.attempt();
    const fullAttempt = this.storeFull.attempt();
    try {
      const fresh = await this.opts.store.claim(key, ttlMs);
      this.storeFull.ok(fullAttempt);
      this.storeDown.ok(attempt);
      return fresh ? 'fresh' : 'reused';
    } catch (err) {
      if (err instanceof NonceStoreFullError) return this.full();
      this.storeDown.fail(err);
      if (input.mutation || !this.opts.fallback) return 'unavailable';
      try {
        const fresh = await this.opts.fallback.claim(key, ttlMs);
        this.storeFull.ok(fullAttempt);
        return fresh ? 'fresh' : 'reused';
      } catch (fallbackErr) {
        return fallbackErr instanceof NonceStoreFullError ? this.full() : 'unavailable';
      }
    }
  }

  private full(): NonceVerdict {
    this.storeFull.fail();
    return 'unavailable';
  }
}
