/**
 * Reports a failing dependency once when it starts failing and once when it works again, however
 * many calls fail meanwhile: one log line per outage instead of one per request or retry.
 * Concurrent calls: number each with `attempt()` and pass it to `ok()`, so a call sent before the
 * outage was noticed, answered late, does not end it (unnumbered, it would: "up", then "down"
 * again at the next call).
 */
export class OutageLatch {
  private failing = false;
  private attempts = 0;
  /** The attempts numbered when the outage was noticed: a success among them proves nothing. */
  private failedAfter = 0;

  constructor(
    private readonly onDown: (err: unknown) => void,
    private readonly onUp: () => void = () => undefined,
  ) {}

  /** Numbers a call about to be made, for `ok()`. */
  attempt(): number {
    this.attempts += 1;
    return this.attempts;
  }

  /** A failure: reported if it is the first since the dependency last worked. */
  fail(err?: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.failedAfter = this.attempts;
    this.onDown(err);
  }

  /** A success (of `attempt`, when numbered): ends the outage, reporting it, unless the call began before the outage was noticed. */
  ok(attempt?: number): void {
    if (!this.failing) return;
    if (attempt !== undefined && attempt <= this.failedAfter) return;
    this.failing = false;
    this.onUp();
  }
}
