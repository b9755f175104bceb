// POST /v1/contracts bodies the market accepts: schema-generated ones and the document's example
// mostly stop at 400 (the example's verifier mode names a placeholder verifier; generated ones a
// verifier that is the buyer or not registered, or a deadline in the past). These are a new
// contract of the acting agent: a fresh key, a deadline a day or more after the run's start (still
// ahead on the longest runs), buyer or auto verification (no verifier). Creating holds nothing.
import { signVerificationReport, verificationReportPayload } from '@exchange/sdk';
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

// The contract flow after creation (offers, results, verification, disputes): the party field
// names the acting agent, so the operator's requests without X-Agent-Id act for it too, and the
// path's contract comes from the operation's targets (op-targets.ts), where that agent may act.

/** An offer of `sellerId` within every target contract's budget, delivered before its deadline. */
export function offerBody(sellerId: string, now: number): fc.Arbitrary<unknown> {
  return fc
    .record({ amount: fc.constantFrom('0.5', '1'), eta: futureDate(now), terms: fc.option(fc.constantFrom('fuzz', 'Livré en JSON', ''), { nil: undefined }), key: freshIdempotencyKey() })
    .map((v) => ({ seller_id: sellerId, price: { amount: v.amount, currency: 'CREDIT' }, eta: v.eta, ...(v.terms !== undefined ? { terms: v.terms } : {}), idempotency_key: v.key }));
}

/** A delivery of the awarded seller `sellerId`. */
export function resultBody(sellerId: string): fc.Arbitrary<unknown> {
  return fc
    .record({ summary: fc.constantFrom('delivered', '40 résumés', '結果'), payload: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }), key: freshIdempotencyKey() })
    .map((v) => ({ seller_id: sellerId, summary: v.summary, ...(v.payload !== undefined ? { payload: v.payload } : {}), idempotency_key: v.key }));
}

/** A verification report on `resultIds` (the signer's delivered contract), signed by `verifierId`. */
export function verificationBody(verifierId: string, key: Uint8Array, resultIds: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc
    .record({
      resultId: resultIds,
      verdict: fc.constantFrom('pass' as const, 'pass' as const, 'fail' as const),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
      checks: fc.option(fc.array(fc.record({ name: fc.constantFrom('format', 'coverage', 'språk'), ok: fc.boolean() }), { maxLength: 3 }), { nil: undefined }),
      key: freshIdempotencyKey(),
    })
    .map((v) => {
      const report = { verifierId, resultId: v.resultId, verdict: v.verdict, score: v.score, checks: v.checks };
      return { ...verificationReportPayload(report), signature: signVerificationReport(report, key), idempotency_key: v.key };
    });
}

/** A dispute opened by the party `openedBy`. */
export function disputeBody(openedBy: string): fc.Arbitrary<unknown> {
  return fc
    .record({ reason: fc.constantFrom('Half of the items are missing', 'Résultat incomplet', '不完全'), key: freshIdempotencyKey() })
    .map((v) => ({ opened_by: openedBy, reason: v.reason, idempotency_key: v.key }));
}
