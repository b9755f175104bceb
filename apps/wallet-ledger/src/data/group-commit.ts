/** One item's result from a batch commit: its own value or its own error. */
export type Settled<R> = { value: R } | { error: unknown };

export interface GroupCommitOptions {
  /** At most this many items per batch. */
  maxBatch: number;
  /** How long a batch waits for neighbours once a commit slot is free; 0 = to the end of the current I/O round. */
  windowUs: number;
  /** Batches committing at the same time. */
  maxInFlight: number;
}

/** Runs `fn` after `us` microseconds (0: after the pending I/O callbacks, setImmediate). */
export type Scheduler = (us: number, fn: () => void) => void;

const defaultScheduler: Scheduler = (us, fn) => {
  if (us <= 0) setImmediate(fn);
  else setTimeout(fn, us / 1000);
};

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit (TigerBeetle's batches): items submitted while a batch is committing, or within
 * the window, are handed to `commit` together, in arrival order; each caller gets its own result.
 * When a batch finishes, the items that queued meanwhile go at once (they already waited).
 */
export class GroupCommitter<T, R> {
  private queue: Array<Waiting<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly opts: GroupCommitOptions,
    private readonly commit: (items: T[]) => Promise<Array<Settled<R>>>,
    private readonly schedule: Scheduler = defaultScheduler,
  ) {
    if (opts.maxBatch < 1 || opts.maxInFlight < 1) throw new Error('group commit: maxBatch and maxInFlight must be at least 1');
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump(false);
    });
  }

  /** Items waiting for a batch (not yet committing). */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(now: boolean): void {
    // A full batch never waits for the window.
    while (this.inFlight < this.opts.maxInFlight && (this.queue.length >= this.opts.maxBatch || (now && this.queue.length > 0))) {
      this.startBatch();
    }
    if (this.queue.length === 0 || this.inFlight >= this.opts.maxInFlight || this.scheduled) return;
    this.scheduled = true;
    this.schedule(this.opts.windowUs, () => {
      this.scheduled = false;
      this.pump(true);
    });
  }

  private startBatch(): void {
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.inFlight++;
    this.run(batch).finally(() => {
      this.inFlight--;
      this.pump(true);
    });
  }

  private async run(batch: Array<Waiting<T, R>>): Promise<void> {
    let results: Array<Settled<R>>;
    try {
      results = await this.commit(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => {
      const r = results[i];
      if ('error' in r) w.reject(r.error);
      else w.resolve(r.value);
    });
  }
}
