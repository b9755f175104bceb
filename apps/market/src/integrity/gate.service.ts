import type { Queryable } from '@exchange/db';
import { enforcement, type IntegrityAction } from './integrity-states';
import { readGate } from './integrity.repo';

/**
 * Throws the 503 (read_only, kill_switch:<name>, market_restricted, market_halted) when the
 * market's integrity forbids the action. Reads the row every time (one round trip): correctness
 * over caching. Call it before any state change, so a refused request changes nothing.
 */
export async function enforceIntegrity(db: Queryable, action: IntegrityAction): Promise<void> {
  const refusal = enforcement(await readGate(db), action);
  if (refusal) throw refusal;
}
