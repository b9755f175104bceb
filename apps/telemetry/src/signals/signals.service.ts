import { newId } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import { boosts } from '../domain/boost';
import type { TelemetryRuntime } from '../service/runtime';
import { boostSince, checkBoostQuery, checkSignal, recorderOf, type BoostsInput, type MatchingSignalRecord, type SignalInput, type TelemetryActor } from './signal-rules';
import { findSignal, insertSignal, signalsForContract, signalsForSeller } from './signals.repo';
import { enqueueSignalRecorded } from './signals.events';

export type SignalsDeps = Pick<TelemetryRuntime, 'pool' | 'clock' | 'notify'>;

/** Matching signals: recorded once each, and turned into boosts for the market's recommendations. */
export class SignalsService {
  constructor(private readonly deps: SignalsDeps) {}

  /**
   * A new signal and its outbox event commit together; a repeat of a stored one (same recorder,
   * kind, contract, seller and request) answers the stored signal with duplicate = true and
   * writes nothing — the unique index decides, so two concurrent repeats cannot both insert.
   */
  async record(input: SignalInput, actor: TelemetryActor | undefined): Promise<{ signal: MatchingSignalRecord; duplicate: boolean }> {
    const now = this.deps.clock();
    const checked = checkSignal(input, recorderOf(actor), now);
    const inserted = await withTransaction(this.deps.pool, async (client) => {
      const row = await insertSignal(client, checked, newId('sig'), now);
      if (row !== null) await enqueueSignalRecorded(client, row);
      return row;
    });
    if (inserted !== null) {
      this.deps.notify();
      return { signal: inserted, duplicate: false };
    }
    const stored = await findSignal(this.deps.pool, checked);
    // The row the conflict met is never deleted, so it is there to read.
    if (stored === null) throw new Error('matching signal conflict without a stored row');
    return { signal: stored, duplicate: true };
  }

  /** Boost 0–1 per candidate with a signal in the last 30 days (README "Matching signals"). */
  async boosts(input: BoostsInput): Promise<Array<{ candidateId: string; boost: number }>> {
    const q = checkBoostQuery(input);
    if (q.candidates.length === 0) return [];
    const now = this.deps.clock();
    const since = boostSince(now);
    const signals =
      q.kind === 'sellers'
        ? await signalsForContract(this.deps.pool, q.contractId, q.candidates, since)
        : await signalsForSeller(this.deps.pool, q.sellerId, q.candidates, since);
    const scored = new Map(boosts(signals, now).map((b) => [b.candidateId, b.boost]));
    // In the order the caller listed the candidates.
    return q.candidates.flatMap((id) => {
      const boost = scored.get(id);
      return boost === undefined ? [] : [{ candidateId: id, boost }];
    });
  }
}
