// The market's integrity snapshot as the gateway's read_only / kill-switch guard sees it, cached
// for at most `ttlMs` (GATEWAY_INTEGRITY_CACHE_MS). A change made through ANOTHER gateway replica
// (or on the market directly) is seen here within that window; changes made through this gateway
// replace the entry at once. A failed lookup (market unreachable) is remembered as "unknown" for
// the same window so that mutations do not each wait for a deadline; the services enforce the
// switches themselves, so "unknown" lets requests through.

export interface GuardSnapshot {
  readOnly: boolean;
  enabledSwitches: ReadonlySet<string>;
}

export type SnapshotLookup = (requestId: string) => Promise<GuardSnapshot>;

export class IntegrityCache {
  private entry: { value: GuardSnapshot | null; expiresAt: number } | null = null;
  private inFlight: Promise<GuardSnapshot | null> | null = null;
  /** Bumped by set(): a lookup started before a fresher set() must not overwrite it. */
  private generation = 0;

  constructor(
    private readonly lookup: SnapshotLookup,
    private readonly ttlMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The snapshot, or null when the market could not be asked. One lookup in flight at a time. */
  get(requestId: string): Promise<GuardSnapshot | null> {
    if (this.entry && this.entry.expiresAt > this.now()) return Promise.resolve(this.entry.value);
    if (this.inFlight) return this.inFlight;
    const generation = this.generation;
    const load = this.lookup(requestId)
      .then(
        (value) => value,
        (err: unknown) => {
          this.onError(err);
          return null;
        },
      )
      .then((value) => {
        if (generation === this.generation) this.entry = { value, expiresAt: this.now() + this.ttlMs };
        return value;
      })
      .finally(() => {
        this.inFlight = null;
      });
    this.inFlight = load;
    return load;
  }

  /** A snapshot the market just answered to this gateway's own integrity change. */
  set(value: GuardSnapshot): void {
    this.generation++;
    this.entry = { value, expiresAt: this.now() + this.ttlMs };
  }
}
