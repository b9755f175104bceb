/**
 * Reports a failing dependency once when it starts failing and once when it works again, however
 * many calls fail meanwhile: one log line per outage instead of one per request or retry.
 */
export class OutageLatch {
  private failing = false;

  constructor(
    private readonly onDown: (err: unknown) => void,
    private readonly onUp: () => void = () => undefined,
  ) {}

  /** A failure: reported if it is the first since the dependency last worked. */
  fail(err?: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.onDown(err);
  }

  /** A success: ends the outage, reporting it, if there was one. */
  ok(): void {
    if (!this.failing) return;
    this.failing = false;
    this.onUp();
  }
}
