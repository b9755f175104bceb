import fc from 'fast-check';
import { violations } from './conformance';
import { schemaArbitrary } from './schema-arbitrary';
import { AGENT_ID, CONTRACT, FAUCET } from './test-schemas';

const pools = {
  agent: ['fuzz:agent:buyer', 'fuzz:agent:seller'],
  artifact: [`sha256:${'a'.repeat(64)}`],
};

describe('schemaArbitrary', () => {
  it.each([
    ['faucet', FAUCET],
    ['contract', CONTRACT],
  ])('generates only values the %s schema accepts', (_name, schema) => {
    fc.assert(
      fc.property(schemaArbitrary(schema, { pools }), (value) => {
        expect(violations(schema, value)).toEqual([]);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('always includes required fields and sometimes the optional ones', () => {
    const values = fc.sample(schemaArbitrary(FAUCET, { pools: {} }), { seed: 1, numRuns: 200 }) as Array<Record<string, unknown>>;
    expect(values.every((v) => 'amount' in v && 'category' in v)).toBe(true);
    expect(values.some((v) => 'currency' in v)).toBe(true);
    expect(values.some((v) => !('currency' in v))).toBe(true);
  });

  it('favours the examples of the document', () => {
    const values = fc.sample(schemaArbitrary(FAUCET.properties!.amount, { pools: {} }), { seed: 3, numRuns: 200 });
    expect(values.filter((v) => v === '12.5').length).toBeGreaterThan(20);
  });

  it('draws real ids for fields named after a pool, arrays included', () => {
    const agents = fc.sample(schemaArbitrary(AGENT_ID, { pools }, 'buyer_id'), { seed: 5, numRuns: 100 });
    expect(agents.filter((v) => pools.agent.includes(v as string)).length).toBeGreaterThan(40);
    const refs = fc.sample(schemaArbitrary(CONTRACT.properties!.artifact_refs, { pools }, 'artifact_refs'), { seed: 5, numRuns: 100 }) as string[][];
    expect(refs.flat().filter((v) => v === pools.artifact[0]).length).toBeGreaterThan(20);
  });

  it('is deterministic for a seed', () => {
    const a = fc.sample(schemaArbitrary(CONTRACT, { pools }), { seed: 9, numRuns: 20 });
    const b = fc.sample(schemaArbitrary(CONTRACT, { pools }), { seed: 9, numRuns: 20 });
    expect(a).toEqual(b);
  });
});
