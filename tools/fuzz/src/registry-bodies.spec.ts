import { generateAgentKeys, signArtifactAck } from '@exchange/sdk';
import fc from 'fast-check';
import type { OpTarget } from './op-targets';
import { ackBody, revealBody } from './registry-bodies';

// Acks and reveals of the registry's targets: the ids come from the target, signed by the acting agent.

const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 30, seed: 9 }) as Array<Record<string, any>>;

describe('registry bodies', () => {
  it("acks are signed by the acting agent over the target's artifact ref", () => {
    const keys = generateAgentKeys();
    for (const b of sample(ackBody(fc.constant('sha256:ab'), 'fz:agent:a', keys.privateKey))) {
      expect(b.agent_id === undefined || b.agent_id === 'fz:agent:a').toBe(true);
      expect(b.signature).toBe(signArtifactAck('sha256:ab', 'fz:agent:a', keys.privateKey));
    }
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
