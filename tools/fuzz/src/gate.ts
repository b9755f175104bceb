// Shared/exclusive gate: ordinary requests run side by side; an exclusive one (a market-wide
// switch) waits until nothing is in flight and holds the others back until it is done.

export class Gate {
  private active = 0;
  private exclusiveHeld = false;
  private waiters: Array<() => void> = [];

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  private next(): Promise<void> {
    return new Promise<void>((r) => this.waiters.push(r));
  }

  // The conditions are checked in the same synchronous step as the counter changes below.
  async shared<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusiveHeld) await this.next();
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.wake();
    }
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.exclusiveHeld) await this.next();
    this.exclusiveHeld = true;
    try {
      while (this.active > 0) await this.next();
      return await fn();
    } finally {
      this.exclusiveHeld = false;
      this.wake();
    }
  }
}
