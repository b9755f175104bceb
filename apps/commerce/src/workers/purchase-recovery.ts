import { stalePayments } from '../saga/purchase.repo';
import { PurchaseSaga, type PurchaseSagaDeps } from '../saga/purchase.saga';

const BATCH = 100;

/**
 * One recovery round: finishes completes a crash (or an unreachable wallet/merchant) left in flight
 * — sessions whose payment_stage is reserved, hold_placed or merchant_completed and has not moved
 * for `minAgeMs` (0 at start-up: all of them; otherwise a complete still running its own steps is
 * left alone). Each is resumed from its stored stage with the attempt's idempotency keys. Never
 * throws: a session that cannot move yet is logged and retried next round. Returns how many moved.
 */
export async function recoverPurchases(r: PurchaseSagaDeps, minAgeMs: number): Promise<number> {
  const saga = new PurchaseSaga(r);
  let moved = 0;
  let sessions: string[];
  try {
    sessions = await stalePayments(r.pool, new Date(r.clock().getTime() - minAgeMs), BATCH);
  } catch (err) {
    r.logger.warn({ err: (err as Error).message }, 'purchase recovery could not list sessions');
    return 0;
  }
  for (const sessionId of sessions) {
    try {
      if (await saga.resume(sessionId)) moved++;
    } catch (err) {
      r.logger.warn({ commerce_session_id: sessionId, err: (err as Error).message, code: (err as { code?: unknown }).code }, 'purchase recovery: session not moved yet');
    }
  }
  return moved;
}
