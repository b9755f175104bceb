import fc from 'fast-check';
import { consumeHoldBody } from './wallet-bodies';

// Consumes of a target hold: its payee, at most what it holds.

const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 30, seed: 9 }) as Array<Record<string, any>>;

describe('wallet bodies', () => {
  it("consumes pay the target's payee at most the 1 CREDIT held", () => {
    for (const b of sample(consumeHoldBody(fc.constant('fz:agent:payee')))) {
      expect(b.to_agent_id).toBe('fz:agent:payee');
      expect(b.amount === undefined || Number(b.amount) <= 1).toBe(true);
    }
  });
});
