import { DAY_MS } from './window';

// Matching boosts from recorded signals (README "Matching signals"): each signal weighs by its
// kind and halves every 7 days; a candidate's score is the sum, squashed to 0–1 so one strong
// candidate cannot dwarf the market's own ranking: boost = 1 − e^(−score/10).

export type SignalName = 'impression' | 'click' | 'shortlist' | 'award';

export const SIGNAL_WEIGHTS: Readonly<Record<SignalName, number>> = { impression: 1, click: 3, shortlist: 6, award: 10 };
export const BOOST_HALF_LIFE_DAYS = 7;
export const BOOST_SCALE = 10;
/** Only signals of the last 30 days count (older ones weigh under 6 % of their weight anyway). */
export const BOOST_LOOKBACK_DAYS = 30;

export interface WeighedSignal {
  candidateId: string;
  signal: SignalName;
  occurredAt: Date;
}

/** weight × 0.5^(age_days / 7); a signal "from the future" (clock skew) counts as age 0. */
export function decayedWeight(signal: SignalName, occurredAt: Date, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - occurredAt.getTime()) / DAY_MS;
  return SIGNAL_WEIGHTS[signal] * Math.pow(0.5, ageDays / BOOST_HALF_LIFE_DAYS);
}

export function boostOfScore(score: number): number {
  return 1 - Math.exp(-score / BOOST_SCALE);
}

/** Boost per candidate with at least one signal, in the order the candidates first appear. */
export function boosts(signals: readonly WeighedSignal[], now: Date): Array<{ candidateId: string; boost: number }> {
  const scores = new Map<string, number>();
  for (const s of signals) scores.set(s.candidateId, (scores.get(s.candidateId) ?? 0) + decayedWeight(s.signal, s.occurredAt, now));
  return [...scores].map(([candidateId, score]) => ({ candidateId, boost: boostOfScore(score) }));
}
