import type { Logger } from './logger';

/**
 * Runs `round` every `intervalMs` (after the previous round finished, so rounds never overlap in
 * one process); 0 disables the timer. A failed round is logged and the next one runs as usual.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly round: () => Promise<number>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.intervalMs > 0) this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((err: unknown) => this.logger.warn({ err: (err as Error).message, worker: this.name }, 'worker round failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** No new rounds; waits for the one in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
