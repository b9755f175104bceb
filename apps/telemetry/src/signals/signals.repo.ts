import type { Queryable } from '@exchange/db';
import type { SignalName, WeighedSignal } from '../domain/boost';
import type { CheckedSignal, MatchingSignalRecord } from './signal-rules';

// matching_signals. Once per (recorder, signal, contract, seller, request) is the unique index
// matching_signals_dedup_key: the insert asks it (ON CONFLICT), never a read first.

interface SignalRow {
  signal_id: string;
  signal: SignalName;
  recorded_by: string;
  contract_id: string;
  seller_id: string;
  listing_id: string | null;
  request_id: string;
  occurred_at: Date;
  recorded_at: Date;
}

const COLUMNS = 'signal_id, signal, recorded_by, contract_id, seller_id, listing_id, request_id, occurred_at, recorded_at';

function toRecord(r: SignalRow): MatchingSignalRecord {
  return {
    signalId: r.signal_id,
    signal: r.signal,
    recordedBy: r.recorded_by,
    contractId: r.contract_id,
    sellerId: r.seller_id,
    listingId: r.listing_id,
    requestId: r.request_id === '' ? null : r.request_id,
    occurredAt: r.occurred_at,
    recordedAt: r.recorded_at,
  };
}

/** Inserts the signal; null when the same one was recorded before (nothing written). */
export async function insertSignal(db: Queryable, s: CheckedSignal, signalId: string, recordedAt: Date): Promise<MatchingSignalRecord | null> {
  const { rows } = await db.query<SignalRow>(
    `INSERT INTO matching_signals (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (recorded_by, signal, contract_id, seller_id, request_id) DO NOTHING RETURNING ${COLUMNS}`,
    [signalId, s.signal, s.recordedBy, s.contractId, s.sellerId, s.listingId, s.requestId ?? '', s.occurredAt, recordedAt],
  );
  return rows.length === 0 ? null : toRecord(rows[0]);
}

/** The stored signal a duplicate repeats. */
export async function findSignal(db: Queryable, s: CheckedSignal): Promise<MatchingSignalRecord | null> {
  const { rows } = await db.query<SignalRow>(
    `SELECT ${COLUMNS} FROM matching_signals
      WHERE recorded_by = $1 AND signal = $2 AND contract_id = $3 AND seller_id = $4 AND request_id = $5`,
    [s.recordedBy, s.signal, s.contractId, s.sellerId, s.requestId ?? ''],
  );
  return rows.length === 0 ? null : toRecord(rows[0]);
}

/** Signals since `since` of the contract's sellers among `sellerIds`, each keyed by its seller. */
export async function signalsForContract(db: Queryable, contractId: string, sellerIds: readonly string[], since: Date): Promise<WeighedSignal[]> {
  const { rows } = await db.query<{ candidate_id: string; signal: SignalName; occurred_at: Date }>(
    `SELECT seller_id AS candidate_id, signal, occurred_at FROM matching_signals
      WHERE contract_id = $1 AND seller_id = ANY($2::text[]) AND occurred_at >= $3 ORDER BY occurred_at, signal_id`,
    [contractId, sellerIds, since],
  );
  return rows.map((r) => ({ candidateId: r.candidate_id, signal: r.signal, occurredAt: r.occurred_at }));
}

/** Signals since `since` of the seller on the contracts among `contractIds`, each keyed by its contract. */
export async function signalsForSeller(db: Queryable, sellerId: string, contractIds: readonly string[], since: Date): Promise<WeighedSignal[]> {
  const { rows } = await db.query<{ candidate_id: string; signal: SignalName; occurred_at: Date }>(
    `SELECT contract_id AS candidate_id, signal, occurred_at FROM matching_signals
      WHERE seller_id = $1 AND contract_id = ANY($2::text[]) AND occurred_at >= $3 ORDER BY occurred_at, signal_id`,
    [sellerId, contractIds, since],
  );
  return rows.map((r) => ({ candidateId: r.candidate_id, signal: r.signal, occurredAt: r.occurred_at }));
}
