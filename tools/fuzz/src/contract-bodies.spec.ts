import { generateAgentKeys, publicKeyToBase64, verifyVerificationReport } from '@exchange/sdk';
import fc from 'fast-check';
import { contractBody, disputeBody, offerBody, resultBody, verificationBody } from './contract-bodies';

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

describe('contract flow bodies', () => {
  const now = Date.parse('2026-11-25T10:00:00.000Z');
  const sample = (arb: fc.Arbitrary<unknown>) => fc.sample(arb, { numRuns: 30, seed: 5 }) as Array<Record<string, any>>;

  it('offers name the seller, stay within a 1 CREDIT budget and deliver after now', () => {
    for (const b of sample(offerBody('fz:agent:seller', now))) {
      expect(b.seller_id).toBe('fz:agent:seller');
      expect(Number(b.price.amount)).toBeLessThanOrEqual(1);
      expect(b.price.currency).toBe('CREDIT');
      expect(Date.parse(b.eta)).toBeGreaterThan(now);
    }
  });

  it('results and disputes name the acting party', () => {
    expect(sample(resultBody('fz:agent:seller')).every((b) => b.seller_id === 'fz:agent:seller' && b.summary.length > 0)).toBe(true);
    expect(sample(disputeBody('fz:agent:buyer')).every((b) => b.opened_by === 'fz:agent:buyer' && b.reason.length > 0)).toBe(true);
  });

  it('verification reports carry a signature by the verifier that verifies', () => {
    const keys = generateAgentKeys();
    for (const b of sample(verificationBody('fz:agent:verifier', keys.privateKey, fc.constant('res_1')))) {
      expect(b.verifier_id).toBe('fz:agent:verifier');
      expect(b.result_id).toBe('res_1');
      const report = { verifierId: b.verifier_id, resultId: b.result_id, verdict: b.verdict, score: b.score, checks: b.checks };
      expect(verifyVerificationReport(report, b.signature, publicKeyToBase64(keys.publicKey))).toBe(true);
    }
  });
});
