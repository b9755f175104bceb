import { agreement, computeVerifierReputation, type VerifierReportFact } from './verifier-reputation';

const asOf = new Date('2026-01-31T00:00:00.000Z');
const at = (msBefore: number) => new Date(asOf.getTime() - msBefore);
const DAY = 86_400_000;

describe('agreement', () => {
  it('should agree when the dispute went the verdict’s way, and by the share on a split', () => {
    expect(agreement('pass', 'seller', null)).toBe(1);
    expect(agreement('fail', 'buyer', null)).toBe(1);
    expect(agreement('pass', 'buyer', null)).toBe(0);
    expect(agreement('fail', 'seller', null)).toBe(0);
    expect(agreement('pass', 'split', 7000)).toBeCloseTo(0.7, 12);
    expect(agreement('fail', 'split', 7000)).toBeCloseTo(0.3, 12);
  });
});

describe('computeVerifierReputation (vrep-v1)', () => {
  it('should stay at the prior without disputes and report counts and latency', () => {
    const facts: VerifierReportFact[] = [
      { at: at(DAY), resultAt: at(DAY + 1000), verdict: 'pass', dispute: null },
      { at: at(2 * DAY), resultAt: at(2 * DAY + 3000), verdict: 'fail', dispute: null },
    ];
    expect(computeVerifierReputation(facts, asOf, 90)).toEqual({
      score: 0.5,
      confidence: 0,
      reports: 2,
      passed: 1,
      failed: 1,
      disputed: 0,
      agreements: 0,
      agreementRate: null,
      medianLatencyMs: 2000, // floor((1000 + 3000) / 2)
    });
  });

  it('should match the hand-computed figures and ignore reports and disputes after as_of', () => {
    const facts: VerifierReportFact[] = [
      { at: at(1000), resultAt: at(2000), verdict: 'pass', dispute: { resolvedAt: at(500), outcome: 'seller', sellerShareBps: null } }, // 1
      { at: at(1000), resultAt: at(5000), verdict: 'pass', dispute: { resolvedAt: at(500), outcome: 'buyer', sellerShareBps: null } }, // 0
      { at: at(1000), resultAt: at(8000), verdict: 'fail', dispute: { resolvedAt: at(500), outcome: 'split', sellerShareBps: 2500 } }, // 0.75
      { at: at(1000), resultAt: at(1500), verdict: 'fail', dispute: { resolvedAt: new Date(asOf.getTime() + 1), outcome: 'seller', sellerShareBps: null } }, // not yet resolved
      { at: new Date(asOf.getTime() + 1), resultAt: at(0), verdict: 'pass', dispute: null }, // after as_of
      { at: at(11 * DAY), resultAt: at(11 * DAY + 1), verdict: 'pass', dispute: null }, // before the window
    ];
    const r = computeVerifierReputation(facts, asOf, 10);
    // agreements 1 + 0 + 0.75 = 1.75 over 3; score = (1 + 1.75) / (2 + 3) = 0.55; confidence 3/5
    expect(r).toEqual({
      score: 0.55,
      confidence: 0.6,
      reports: 4,
      passed: 2,
      failed: 2,
      disputed: 3,
      agreements: 1.75,
      agreementRate: 0.583333333,
      medianLatencyMs: 2500, // latencies sorted 500, 1000, 4000, 7000 → (1000 + 4000) / 2
    });
  });

  it('should answer nulls for an empty window', () => {
    const r = computeVerifierReputation([], asOf, 90);
    expect(r.medianLatencyMs).toBeNull();
    expect(r.agreementRate).toBeNull();
    expect(r.reports).toBe(0);
  });
});
