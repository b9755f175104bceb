import { bayesianAverage, decay, round9, type Weighted } from './bayes';
import { DAY_MS, inWindow } from './window';

// Agent reputation "rep-v1" (apps/market/README.md "Reputation"): the facts of the agent's
// contracts in (as_of − window_days, as_of], each an observation 0–1 with a weight, decayed by
// age with a half-life of window_days / 2, averaged with the prior (bayes.ts).

export const REPUTATION_FORMULA = 'rep-v1';

/** Weights: losing a dispute as seller weighs most; a buyer's own settlements count less than a seller's. */
export const REP_WEIGHTS = {
  settledAsSeller: 1,
  verification: 0.5,
  sellerDispute: 2,
  settledAsBuyer: 0.5,
  buyerDisputeLost: 1,
} as const;

export interface Settlement {
  contractId: string;
  settledAt: Date;
  correctedAt: Date | null;
  price: bigint;
  currency: string;
  receiptId: string | null;
}

export interface ReputationFacts {
  /** Contracts the agent settled as seller (settled_at set). */
  asSeller: Settlement[];
  /** Contracts the agent settled as buyer. */
  asBuyer: Settlement[];
  /** Verification reports on the agent's results. */
  verifications: Array<{ at: Date; verdict: 'pass' | 'fail' }>;
  /** Resolved disputes on contracts where the agent is the seller. */
  sellerDisputes: Array<{ resolvedAt: Date; outcome: 'seller' | 'buyer' | 'split'; sellerShareBps: number | null }>;
  /** Resolved disputes the agent opened as buyer (only outcome seller is an observation). */
  buyerDisputes: Array<{ resolvedAt: Date; outcome: 'seller' | 'buyer' | 'split' }>;
}

export interface ReputationComponents {
  settledAsSeller: number;
  settledAsBuyer: number;
  verificationsPassed: number;
  verificationsFailed: number;
  disputesWon: number;
  disputesLost: number;
  disputesSplit: number;
  evidenceWeight: number;
}

export interface ReputationFigures {
  score: number;
  confidence: number;
  components: ReputationComponents;
  /** Settled volume as seller, per currency (sorted by currency). */
  volume: Array<{ amount: bigint; currency: string }>;
  /** Receipts of the counted settlements (seller and buyer), oldest first. */
  receiptIds: string[];
}

/** A settlement counts when it happened in the window and was not corrected by as_of. */
function counted(s: Settlement, start: Date, asOf: Date): boolean {
  return inWindow(s.settledAt, start, asOf) && !(s.correctedAt !== null && s.correctedAt.getTime() <= asOf.getTime());
}

/**
 * `decayFrom` (default as_of) is the instant ages are measured from: recommendations pass the
 * start of the current hour so the same request gives the same scores all hour (later facts count
 * at full weight).
 */
export function computeReputation(facts: ReputationFacts, asOf: Date, windowDays: number, decayFrom: Date = asOf): ReputationFigures {
  const start = new Date(asOf.getTime() - windowDays * DAY_MS);
  const halfLife = (windowDays * DAY_MS) / 2;
  const obs: Weighted[] = [];
  const add = (at: Date, x: number, weight: number) => obs.push({ x, w: weight * decay(decayFrom.getTime() - at.getTime(), halfLife) });
  const c: ReputationComponents = {
    settledAsSeller: 0,
    settledAsBuyer: 0,
    verificationsPassed: 0,
    verificationsFailed: 0,
    disputesWon: 0,
    disputesLost: 0,
    disputesSplit: 0,
    evidenceWeight: 0,
  };
  const volume = new Map<string, bigint>();
  const receipts: Array<{ at: number; id: string; receipt: string }> = [];

  for (const s of facts.asSeller.filter((x) => counted(x, start, asOf))) {
    c.settledAsSeller++;
    add(s.settledAt, 1, REP_WEIGHTS.settledAsSeller);
    volume.set(s.currency, (volume.get(s.currency) ?? 0n) + s.price);
    if (s.receiptId) receipts.push({ at: s.settledAt.getTime(), id: s.contractId, receipt: s.receiptId });
  }
  for (const s of facts.asBuyer.filter((x) => counted(x, start, asOf))) {
    c.settledAsBuyer++;
    add(s.settledAt, 1, REP_WEIGHTS.settledAsBuyer);
    if (s.receiptId) receipts.push({ at: s.settledAt.getTime(), id: s.contractId, receipt: s.receiptId });
  }
  for (const v of facts.verifications.filter((x) => inWindow(x.at, start, asOf))) {
    if (v.verdict === 'pass') c.verificationsPassed++;
    else c.verificationsFailed++;
    add(v.at, v.verdict === 'pass' ? 1 : 0, REP_WEIGHTS.verification);
  }
  for (const d of facts.sellerDisputes.filter((x) => inWindow(x.resolvedAt, start, asOf))) {
    if (d.outcome === 'seller') c.disputesWon++;
    else if (d.outcome === 'buyer') c.disputesLost++;
    else c.disputesSplit++;
    const x = d.outcome === 'seller' ? 1 : d.outcome === 'buyer' ? 0 : (d.sellerShareBps ?? 0) / 10_000;
    add(d.resolvedAt, x, REP_WEIGHTS.sellerDispute);
  }
  for (const d of facts.buyerDisputes.filter((x) => x.outcome === 'seller' && inWindow(x.resolvedAt, start, asOf))) {
    c.disputesLost++;
    add(d.resolvedAt, 0, REP_WEIGHTS.buyerDisputeLost);
  }

  const avg = bayesianAverage(obs);
  c.evidenceWeight = round9(avg.evidence);
  receipts.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    score: round9(avg.score),
    confidence: round9(avg.confidence),
    components: c,
    volume: [...volume.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, amount]) => ({ amount, currency })),
    receiptIds: receipts.map((r) => r.receipt),
  };
}
