import type { FaultPoint } from '../domain/faults';
import type { CommerceRuntime } from '../service/runtime';

/** What the purchase saga uses of the runtime. */
export type PurchaseSagaDeps = Pick<CommerceRuntime, 'pool' | 'wallet' | 'merchants' | 'agents' | 'clock' | 'logger' | 'notify' | 'faults'>;

/**
 * Kill-test crash point (COMMERCE_FAULT_INJECTION): called right after a step committed. SIGKILL
 * like the market's fault points — no shutdown hook, no answer to the caller, no outbox flush — so
 * the restarted process must finish the purchase from what was stored.
 */
export async function crashPoint(d: Pick<PurchaseSagaDeps, 'faults' | 'logger'>, point: FaultPoint, sessionId: string): Promise<void> {
  if (!d.faults.has(point)) return;
  d.logger.warn({ fault: point, commerce_session_id: sessionId }, 'fault injection: killing the process');
  process.kill(process.pid, 'SIGKILL');
  await new Promise(() => undefined); // never returns: the process is gone
}
