import { median } from '../domain/verification';
import { bayesianAverage, round9 } from './bayes';
import { DAY_MS, inWindow } from './window';

// Verifier reputation "vrep-v1" (apps/market/README.md "Verifier reputation"): how often the
// verifier's verdicts agreed with the disputes later resolved on the same contracts.

export const VERIFIER_REPUTATION_FORMULA = 'vrep-v1';

export interface VerifierReportFact {
  /** The report's created_at. */
  at: Date;
  /** created_at of the result it judged. */
  resultAt: Date;
  verdict: 'pass' | 'fail';
  /** The latest dispute on the contract resolved by as_of, if any. */
  dispute: { resolvedAt: Date; outcome: 'seller' | 'buyer' | 'split'; sellerShareBps: number | null } | null;
}

export interface VerifierFigures {
  score: number;
  confidence: number;
  reports: number;
  passed: number;
  failed: number;
  disputed: number;
  agreements: number;
  agreementRate: number | null;
  medianLatencyMs: number | null;
}

/** 1 when the verdict is what the dispute decided, 0 when opposite; a split agrees by the share it gave that side. */
export function agreement(verdict: 'pass' | 'fail', outcome: 'seller' | 'buyer' | 'split', sellerShareBps: number | null): number {
  if (outcome === 'split') {
    const share = (sellerShareBps ?? 0) / 10_000;
    return verdict === 'pass' ? share : 1 - share;
  }
  return (verdict === 'pass') === (outcome === 'seller') ? 1 : 0;
}

export function computeVerifierReputation(facts: readonly VerifierReportFact[], asOf: Date, windowDays: number): VerifierFigures {
  const start = new Date(asOf.getTime() - windowDays * DAY_MS);
  const reports = facts.filter((f) => inWindow(f.at, start, asOf));
  const passed = reports.filter((r) => r.verdict === 'pass').length;
  const agreements: number[] = [];
  for (const r of reports) {
    if (r.dispute && r.dispute.resolvedAt.getTime() <= asOf.getTime()) {
      agreements.push(agreement(r.verdict, r.dispute.outcome, r.dispute.sellerShareBps));
    }
  }
  // Each disputed report is one observation of weight 1; undisputed reports carry no evidence.
  const avg = bayesianAverage(agreements.map((x) => ({ x, w: 1 })));
  const sum = agreements.reduce((a, b) => a + b, 0);
  return {
    score: round9(avg.score),
    confidence: round9(avg.confidence),
    reports: reports.length,
    passed,
    failed: reports.length - passed,
    disputed: agreements.length,
    agreements: round9(sum),
    agreementRate: agreements.length === 0 ? null : round9(sum / agreements.length),
    medianLatencyMs: median(reports.map((r) => Math.max(0, r.at.getTime() - r.resultAt.getTime()))),
  };
}
