// POST /v1/contracts bodies the market accepts: schema-generated ones and the document's example
// mostly stop at 400 (a verifier that is the buyer or not registered, a deadline in the past, the
// example's idempotency key reused with another body: idempotency_key_mismatch). These are a new
// contract of the acting agent: a fresh key, a deadline after `now`, a budget its balance covers.
import fc from 'fast-check';

let contracts = 0;

/** A contract of `buyerId` (named or left to the signature), in buyer or auto verification, 201 expected. */
export function contractBody(buyerId: string, now: number): fc.Arbitrary<unknown> {
  return fc
    .record({
      named: fc.boolean(),
      title: fc.constantFrom('Fuzz contract', 'Résumer 40 tickets', '翻訳の確認', 'x'),
      amount: fc.constantFrom('0.000001', '0.5', '1'),
      hours: fc.integer({ min: 1, max: 24 * 30 }),
      mode: fc.constantFrom('buyer', 'auto'),
      tags: fc.option(fc.subarray(['nlp', 'summaries', 'fuzz', 'code']), { nil: undefined }),
      labels: fc.option(fc.constantFrom({ project: 'fuzz' }, { stage: 'a', shard: '1' }), { nil: undefined }),
      privateBuyer: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((v) => ({
      ...(v.named ? { buyer_id: buyerId } : {}),
      title: v.title,
      budget: { amount: v.amount, currency: 'CREDIT' },
      deadline: new Date(now + v.hours * 3_600_000).toISOString(),
      acceptance_criteria: 'Every item answered',
      verification_mode: v.mode,
      ...(v.tags ? { tags: v.tags } : {}),
      ...(v.labels ? { labels: v.labels } : {}),
      ...(v.privateBuyer !== undefined ? { buyer_private: v.privateBuyer } : {}),
      idempotency_key: `fuzz-contract-${++contracts}`,
    }));
}
