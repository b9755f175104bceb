import { bayesianAverage, decay } from './bayes';
import { computeReputation, type ReputationFacts, type Settlement } from './reputation';

const DAY = 86_400_000;
const asOf = new Date('2026-01-31T00:00:00.000Z');
const ago = (days: number) => new Date(asOf.getTime() - days * DAY);
const settlement = (contractId: string, at: Date, price: bigint, receiptId: string | null, correctedAt: Date | null = null): Settlement => ({
  contractId,
  settledAt: at,
  correctedAt,
  price,
  currency: 'CREDIT',
  receiptId,
});
const empty: ReputationFacts = { asSeller: [], asBuyer: [], verifications: [], sellerDisputes: [], buyerDisputes: [] };

describe('bayesianAverage and decay', () => {
  it('should be the prior without evidence and move with it', () => {
    expect(bayesianAverage([])).toEqual({ score: 0.5, confidence: 0, evidence: 0 });
    // (2·0.5 + 2·1) / (2 + 2) = 0.75
    expect(bayesianAverage([{ x: 1, w: 2 }])).toEqual({ score: 0.75, confidence: 0.5, evidence: 2 });
  });
  it('should halve a weight every half-life', () => {
    expect(decay(0, 10)).toBe(1);
    expect(decay(10, 10)).toBe(0.5);
    expect(decay(20, 10)).toBe(0.25);
    expect(decay(-5, 10)).toBe(1);
  });
});

describe('computeReputation (rep-v1)', () => {
  it('should give the prior with nothing in the window', () => {
    const r = computeReputation(empty, asOf, 90);
    expect(r).toEqual({
      score: 0.5,
      confidence: 0,
      components: { settledAsSeller: 0, settledAsBuyer: 0, verificationsPassed: 0, verificationsFailed: 0, disputesWon: 0, disputesLost: 0, disputesSplit: 0, evidenceWeight: 0 },
      volume: [],
      receiptIds: [],
    });
  });

  it('should match the hand-computed figures (window 10 days, half-life 5 days)', () => {
    const facts: ReputationFacts = {
      asSeller: [
        settlement('c1', asOf, 10_000_000n, 'r1'), // w 1, x 1
        settlement('c0', ago(5), 20_000_000n, 'r0'), // w 0.5, x 1
        settlement('c-old', ago(11), 1n, 'r-old'), // before the window
        settlement('c-corr', ago(1), 1n, 'r-corr', ago(0.5)), // corrected by as_of: not settled
        settlement('c-late', new Date(asOf.getTime() + 3_600_000), 1n, 'r-late'), // after as_of
      ],
      asBuyer: [settlement('c9', asOf, 5_000_000n, 'rb')], // w 0.5, x 1
      verifications: [{ at: ago(5), verdict: 'fail' }], // w 0.25, x 0
      sellerDisputes: [
        { resolvedAt: asOf, outcome: 'buyer', sellerShareBps: null }, // w 2, x 0
        { resolvedAt: asOf, outcome: 'split', sellerShareBps: 2500 }, // w 2, x 0.25
        { resolvedAt: ago(10), outcome: 'seller', sellerShareBps: null }, // exactly the window start: out
      ],
      buyerDisputes: [
        { resolvedAt: ago(5), outcome: 'seller' }, // lost as buyer: w 0.5, x 0
        { resolvedAt: asOf, outcome: 'buyer' }, // won as buyer: no observation
      ],
    };
    const r = computeReputation(facts, asOf, 10);
    // Σw = 1 + 0.5 + 0.5 + 0.25 + 2 + 2 + 0.5 = 6.75; Σw·x = 1 + 0.5 + 0.5 + 0.5 = 2.5
    // score = (2·0.5 + 2.5) / (2 + 6.75) = 0.4; confidence = 6.75 / 8.75
    expect(r.score).toBeCloseTo(0.4, 9);
    expect(r.confidence).toBeCloseTo(6.75 / 8.75, 9);
    expect(r.components).toEqual({
      settledAsSeller: 2,
      settledAsBuyer: 1,
      verificationsPassed: 0,
      verificationsFailed: 1,
      disputesWon: 0,
      disputesLost: 2,
      disputesSplit: 1,
      evidenceWeight: 6.75,
    });
    expect(r.volume).toEqual([{ amount: 30_000_000n, currency: 'CREDIT' }]);
    // oldest first; same instant → by contract id
    expect(r.receiptIds).toEqual(['r0', 'r1', 'rb']);
  });

  it('should rise with passes and settlements, and a lost dispute should weigh more than a settlement', () => {
    const good = computeReputation({ ...empty, asSeller: [settlement('a', asOf, 1n, null)], verifications: [{ at: asOf, verdict: 'pass' }] }, asOf, 90);
    // (1 + 1 + 0.5) / (2 + 1.5)
    expect(good.score).toBeCloseTo(2.5 / 3.5, 9);
    expect(good.components.verificationsPassed).toBe(1);
    const mixed = computeReputation(
      { ...empty, asSeller: [settlement('a', asOf, 1n, null)], sellerDisputes: [{ resolvedAt: asOf, outcome: 'buyer', sellerShareBps: null }] },
      asOf,
      90,
    );
    // (1 + 1) / (2 + 3) = 0.4 < 0.5
    expect(mixed.score).toBeCloseTo(0.4, 9);
  });

  it('should measure ages from decayFrom when given, counting later facts at full weight', () => {
    const facts = { ...empty, asSeller: [settlement('a', ago(5), 1n, null), settlement('b', asOf, 1n, null)] };
    // decayFrom = as_of − 5 days: the first is 0 days old (w 1), the second newer (w 1): (1 + 2) / 4
    expect(computeReputation(facts, asOf, 10, ago(5)).score).toBeCloseTo(0.75, 9);
    // from as_of: w 0.5 + 1 → (1 + 1.5) / 3.5
    expect(computeReputation(facts, asOf, 10).score).toBeCloseTo(2.5 / 3.5, 9);
  });
});
