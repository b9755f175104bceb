import { generateAgentKeys, signArtifactAck } from '@exchange/sdk';
import fc from 'fast-check';
import { caseBody, caseUpdateBody, feedbackBody } from './commerce-bodies';
import type { OpTarget } from './op-targets';
import { ackBody, revealBody } from './registry-bodies';
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

  it('reveals name a target alias with its own contract and reader, and need a whole target', () => {
    const targets: OpTarget[] = [
      { agentId: null, params: { contract_id: 'ctr_1', alias: 'anon:aaaaaaaaaaaa', reveal_to: 'fz:agent:s' } },
      { agentId: null, params: { contract_id: 'ctr_2' } },
    ];
    const arb = revealBody(targets);
    expect(arb).not.toBeNull();
    for (const b of sample(arb as fc.Arbitrary<unknown>)) expect(b).toEqual({ contract_id: 'ctr_1', alias: 'anon:aaaaaaaaaaaa', reveal_to: 'fz:agent:s' });
    expect(revealBody([targets[1]])).toBeNull();
  });
});
