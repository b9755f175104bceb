import { generateAgentKeys, signArtifactAck } from '@exchange/sdk';
import fc from 'fast-check';
import { caseBody } from './commerce-bodies';
import { ackBody } from './registry-bodies';
import { consumeHoldBody } from './wallet-bodies';

// Bodies for operations' targets: the ids come from the target, the rest stays within what the
// target's resource allows.

const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 30, seed: 9 }) as Array<Record<string, any>>;

describe('target bodies', () => {
  it("acks are signed by the acting agent over the target's artifact ref", () => {
    const keys = generateAgentKeys();
    for (const b of sample(ackBody(fc.constant('sha256:ab'), 'fz:agent:a', keys.privateKey))) {
      expect(b.agent_id === undefined || b.agent_id === 'fz:agent:a').toBe(true);
      expect(b.signature).toBe(signArtifactAck('sha256:ab', 'fz:agent:a', keys.privateKey));
    }
  });

  it("cases name the target's deal and ask back less than its 15 USD", () => {
    for (const b of sample(caseBody(fc.constant('deal_1')))) {
      expect(b.deal_id).toBe('deal_1');
      expect(Number(b.amount)).toBeLessThan(15);
      expect(['return', 'refund', 'chargeback']).toContain(b.type);
    }
  });

  it("consumes pay the target's payee at most the 1 CREDIT held", () => {
    for (const b of sample(consumeHoldBody(fc.constant('fz:agent:payee')))) {
      expect(b.to_agent_id).toBe('fz:agent:payee');
      expect(b.amount === undefined || Number(b.amount) <= 1).toBe(true);
    }
  });
});
