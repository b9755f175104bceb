// POST /v1/contracts bodies the market accepts: schema-generated ones and the document's example
// mostly stop at 400 (the example's verifier mode names a placeholder verifier; generated ones a
// verifier that is the buyer or not registered, or a deadline in the past). These are a new
// contract of the acting agent: a fresh key, a deadline a day or more after the run's start (still
// ahead on the longest runs), buyer or auto verification (no verifier). Creating holds nothing.
import fc from 'fast-check';
import { freshIdempotencyKey, futureDate } from './example-arbitrary';

/** A contract of `buyerId` (named or left to the signature), in buyer or auto verification, 201 expected. */
export function contractBody(buyerId: string, now: number): fc.Arbitrary<unknown> {
  return fc
    .record({
      named: fc.boolean(),
      title: fc.constantFrom('Fuzz contract', 'Résumer 40 tickets', '翻訳の確認', 'x'),
      amount: fc.constantFrom('0.000001', '0.5', '1'),
      deadline: futureDate(now),
      mode: fc.constantFrom('buyer', 'auto'),
      tags: fc.option(fc.subarray(['nlp', 'summaries', 'fuzz', 'code']), { nil: undefined }),
      labels: fc.option(fc.constantFrom({ project: 'fuzz' }, { stage: 'a', shard: '1' }), { nil: undefined }),
      privateBuyer: fc.option(fc.boolean(), { nil: undefined }),
      key: freshIdempotencyKey(),
    })
    .map((v) => ({
      ...(v.named ? { buyer_id: buyerId } : {}),
      title: v.title,
      budget: { amount: v.amount, currency: 'CREDIT' },
      deadline: v.deadline,
      acceptance_criteria: 'Every item answered',
      verification_mode: v.mode,
      ...(v.tags ? { tags: v.tags } : {}),
      ...(v.labels ? { labels: v.labels } : {}),
      ...(v.privateBuyer !== undefined ? { buyer_private: v.privateBuyer } : {}),
      idempotency_key: v.key,
    }));
}
