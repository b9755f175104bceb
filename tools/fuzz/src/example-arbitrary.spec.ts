import fc from 'fast-check';
import { violations } from './conformance';
import { exampleArbitrary } from './example-arbitrary';
import type { JsonSchema } from './openapi';
import { AGENT_ID, FAUCET } from './test-schemas';

const OFFER: JsonSchema = {
  type: 'object',
  required: ['price', 'eta'],
  properties: {
    seller_id: AGENT_ID,
    price: { type: 'object', properties: { amount: { type: 'string' }, currency: { type: 'string' } } },
    eta: { type: 'string', format: 'date-time' },
    artifact_refs: { type: 'array', items: { type: 'string' } },
    idempotency_key: { type: 'string' },
  },
  additionalProperties: false,
};
const example = {
  seller_id: 'acme:agent:seller-1',
  price: { amount: '80', currency: 'CREDIT' },
  eta: '2026-11-21T18:00:00.000Z',
  artifact_refs: ['sha256:0'],
  idempotency_key: 'offer-001',
};
const now = Date.parse('2030-01-01T00:00:00Z');
const ctx = { pools: { agent: ['fuzz:agent:a', 'fuzz:agent:b'], artifact: ['sha256:real'] }, signerId: 'fuzz:agent:b', now };

describe('exampleArbitrary', () => {
  const values = fc.sample(exampleArbitrary(example, OFFER, ctx), { seed: 2, numRuns: 100 }) as Array<typeof example>;

  it('keeps the example shape and its plain values, and stays valid', () => {
    for (const v of values) {
      expect(Object.keys(v)).toEqual(Object.keys(example));
      expect(v.price).toEqual({ amount: '80', currency: 'CREDIT' });
      expect(violations(OFFER, v)).toEqual([]);
    }
  });

  it('acts as the signing agent most of the time, with real ids only', () => {
    expect(values.every((v) => ctx.pools.agent.includes(v.seller_id))).toBe(true);
    expect(values.filter((v) => v.seller_id === ctx.signerId).length).toBeGreaterThan(60);
    expect(values.every((v) => v.artifact_refs.every((r) => r === 'sha256:real'))).toBe(true);
  });

  it('uses fresh idempotency keys and dates after now', () => {
    expect(new Set(values.map((v) => v.idempotency_key)).size).toBe(values.length);
    expect(values.every((v) => Date.parse(v.eta) > now)).toBe(true);
  });

  it('works on a flat example', () => {
    const [v] = fc.sample(exampleArbitrary({ amount: '50', category: 'testing', idempotency_key: 'k' }, FAUCET, ctx), { seed: 1, numRuns: 1 }) as Array<Record<string, string>>;
    expect(v.amount).toBe('50');
    expect(v.idempotency_key).toMatch(/^fuzz-[0-9a-f-]{36}$/);
  });
});
