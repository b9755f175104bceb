import fc from 'fast-check';
import { caseBody, caseUpdateBody, feedbackBody } from './commerce-bodies';

// Bodies on the completed checkout's purchase (a target): its deal, within what it allows.

const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 30, seed: 9 }) as Array<Record<string, any>>;

describe('commerce bodies', () => {
  it("cases name the target's deal and ask back less than its 15 USD", () => {
    for (const b of sample(caseBody(fc.constant('deal_1')))) {
      expect(b.deal_id).toBe('deal_1');
      expect(Number(b.amount)).toBeLessThan(15);
      expect(['return', 'refund', 'chargeback']).toContain(b.type);
    }
  });

  it("feedback rates the target's deal 1 to 5", () => {
    for (const b of sample(feedbackBody(fc.constant('deal_1')))) {
      expect(b.deal_id).toBe('deal_1');
      expect(b.rating).toBeGreaterThanOrEqual(1);
      expect(b.rating).toBeLessThanOrEqual(5);
    }
  });

  it('case updates add evidence or make the first move, never a decision an open case refuses', () => {
    const bodies = sample(caseUpdateBody());
    for (const b of bodies) expect(b.evidence_refs !== undefined || b.status === 'under_review').toBe(true);
    expect(bodies.some((b) => b.evidence_refs) && bodies.some((b) => b.status)).toBe(true);
  });
});
