import type { SessionHead } from './evidence-access';
import type { EvidenceRecord } from './evidence.model';

/** A stored row as the database gives it: snake_case columns, BIGINT money as micro-unit text. */
export type StoredRow = Record<string, unknown>;

/** Everything a session's casefile is built from, read in one snapshot. */
export interface CasefileSources {
  session: SessionHead;
  /** The session's public columns (internal bookkeeping left out by the query). */
  sessionRow: StoredRow;
  mandateRow: StoredRow | null;
  /** The purchase without its receipt, when the session completed. */
  purchaseRow: StoredRow | null;
  /** The wallet's receipt of the purchase (as stored with it). */
  receipt: { receiptId: string; content: Record<string, unknown> } | null;
  /** The whole chain, seq order. */
  evidence: EvidenceRecord[];
}

/** Money columns of each row (micro-units in the database, decimal strings in a casefile). */
export const MONEY_COLUMNS = {
  session: ['total', 'list_total', 'approved_total'],
  mandate: ['per_transaction', 'total_limit', 'spent', 'reserved', 'step_up_amount', 'daily_limit'],
  purchase: ['amount', 'list_amount'],
} as const;
