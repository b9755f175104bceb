import { errors } from '@exchange/platform';
import { round9 } from './bayes';
import { sample, seededRandom } from './prng';
import { DAY_MS } from './window';

// Recommendation scoring and exploration (apps/market/README.md "Recommendations"). Pure: the
// service gathers the candidates' history, this file turns it into a ranked list.

export const SIGNAL_WEIGHTS = { tagMatch: 0.4, reputation: 0.3, priceFit: 0.2, recency: 0.1 } as const;
/** Share of the final score taken by the telemetry matching boost, when there is one. */
export const MATCHING_WEIGHT = 0.15;
/** Price fit when nothing tells the candidate's price (no listing, no award in the currency). */
export const UNKNOWN_PRICE_FIT = 0.5;
/** Fewer settled contracts (sellers) / offers (contracts) than this is "low history". */
export const LOW_HISTORY_BELOW = 3;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
export const DEFAULT_EXPLORATION_RATE = 0.1;

export interface Signals {
  tagMatch: number;
  reputation: number;
  priceFit: number;
  recency: number;
  matching: number | null;
}

export interface Candidate<T> {
  id: string;
  signals: Signals;
  lowHistory: boolean;
  item: T;
}

export interface Ranked<T> extends Candidate<T> {
  score: number;
  rank: number;
  exploration: boolean;
}

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

export function resolveLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) invalid('limit', `limit must be 1-${MAX_LIMIT}`);
  return value;
}

export function resolveExplorationRate(value: number | undefined): number {
  if (value === undefined) return DEFAULT_EXPLORATION_RATE;
  if (!Number.isFinite(value) || value < 0 || value > 1) invalid('exploration_rate', 'exploration_rate must be 0-1');
  return value;
}

/** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size === 0 && sb.size === 0) return 0;
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  return inter / (sa.size + sb.size - inter);
}

/** 1 when the price is within the budget, budget/price above it (twice the budget → 0.5); unknown → 0.5. */
export function priceFit(price: bigint | null, budget: bigint): number {
  if (price === null) return UNKNOWN_PRICE_FIT;
  if (price <= budget) return 1;
  return Number(budget) / Number(price);
}

/** 0.5^(age / halfLife); never active → 0. */
export function recency(last: Date | null, now: Date, halfLifeDays: number): number {
  if (last === null) return 0;
  return Math.pow(0.5, Math.max(0, now.getTime() - last.getTime()) / (halfLifeDays * DAY_MS));
}

/**
 * Recommendation signals decay from the start of the current UTC hour, not from the instant of
 * the call: "same request id + same data → same answer" holds all hour long. Facts newer than the
 * epoch still count (at full weight); filters (open, deadline ahead) use the real now.
 */
export function decayEpoch(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
}

/** Weighted sum of the signals; a matching boost, when present, takes MATCHING_WEIGHT of the score. */
export function combine(s: Signals): number {
  const base = SIGNAL_WEIGHTS.tagMatch * s.tagMatch + SIGNAL_WEIGHTS.reputation * s.reputation + SIGNAL_WEIGHTS.priceFit * s.priceFit + SIGNAL_WEIGHTS.recency * s.recency;
  return round9(s.matching === null ? base : (1 - MATCHING_WEIGHT) * base + MATCHING_WEIGHT * s.matching);
}

/**
 * The final list: the best `n − e` by score (ties by id), and `e` exploration slots given to
 * low-history candidates outside those, drawn with the request's seeded PRNG and placed every
 * k-th slot (k = floor(n / e): slots k, 2k, …). n = min(limit, candidates); wanted slots =
 * round(limit × rate); when fewer low-history candidates are left the slots go back to ranking.
 */
export function rankWithExploration<T>(
  candidates: readonly Candidate<T>[],
  limit: number,
  explorationRate: number,
  requestId: string,
): { ranked: Ranked<T>[]; explorationSlots: number } {
  const scored = candidates
    .map((c) => ({ ...c, score: combine(c.signals) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = Math.min(limit, scored.length);
  const wanted = Math.min(n, Math.round(limit * explorationRate));
  const top = scored.slice(0, n - wanted);
  const topIds = new Set(top.map((c) => c.id));
  const pool = scored.filter((c) => c.lowHistory && !topIds.has(c.id));
  const explorers = sample(pool, wanted, seededRandom(requestId));
  const e = explorers.length;
  const explorerIds = new Set(explorers.map((c) => c.id));
  // Slots the pool could not fill go back to ranking: the next best not already chosen.
  const rest = scored.filter((c) => !topIds.has(c.id) && !explorerIds.has(c.id)).slice(0, n - e - top.length);
  const ranked = [...top, ...rest];
  const out: Ranked<T>[] = [];
  const k = e === 0 ? 0 : Math.floor(n / e);
  let ri = 0;
  let ei = 0;
  for (let pos = 1; pos <= n; pos++) {
    const explore = e > 0 && ei < e && pos % k === 0;
    const c = explore ? explorers[ei++] : ranked[ri++];
    out.push({ ...c, rank: pos, exploration: explore });
  }
  return { ranked: out, explorationSlots: e };
}
