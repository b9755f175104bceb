import fc from 'fast-check';
import { contractBody } from './contract-bodies';

// A new contract of the acting agent: its own buyer id or none, a deadline at least a day ahead, a
// small CREDIT budget, no verifier, and a fresh idempotency key.

describe('contractBody', () => {
  it('names only the acting buyer, sets a deadline after now and a fresh idempotency key each time', () => {
    const now = Date.parse('2026-11-25T10:00:00.000Z');
    const bodies = fc.sample(contractBody('fz:agent:buyer', now), { numRuns: 50, seed: 3 }) as Array<Record<string, any>>;
    const keys = new Set(bodies.map((b) => b.idempotency_key));
    expect(keys.size).toBe(bodies.length);
    for (const b of bodies) {
      expect(b.buyer_id === undefined || b.buyer_id === 'fz:agent:buyer').toBe(true);
      expect(Date.parse(b.deadline)).toBeGreaterThan(now + 86_400_000);
      expect(b.budget.currency).toBe('CREDIT');
      expect(['buyer', 'auto']).toContain(b.verification_mode);
      expect(b.verifier_id).toBeUndefined();
    }
    expect(bodies.some((b) => b.buyer_id === undefined) && bodies.some((b) => b.buyer_id !== undefined)).toBe(true);
  });
});
