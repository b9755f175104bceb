import type { CheckoutSession } from './checkout';

/** Sessions in memory: the sandbox merchant keeps no database (README). */
export class CheckoutStore {
  private readonly sessions = new Map<string, CheckoutSession>();
  private orders = 0;

  get(id: string): CheckoutSession | undefined {
    return this.sessions.get(id);
  }

  put(session: CheckoutSession): void {
    this.sessions.set(session.id, session);
  }

  /** Human-readable order numbers, #1001 upward. */
  nextOrderLabel(): string {
    this.orders += 1;
    return `#${1000 + this.orders}`;
  }
}
