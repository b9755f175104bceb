// Commerce bodies no schema or example makes valid: a mandate signed by the acting agent over
// its own terms (the signature covers them), and a checkout under the acting agent's own mandate
// for items the sandbox merchant sells. They reach the spend rules and the merchant, where
// schema-generated ones stop at `mandate_signature_invalid` or `mandate_not_found`.
import { signMandate } from '@exchange/sdk';
import fc from 'fast-check';
import type { CommerceContext } from './commerce-fixtures';
import { freshIdempotencyKey } from './example-arbitrary';

const DAY = 86_400_000;
const AMOUNTS = ['0.5', '1', '12.5', '100', '999999.999999'];

/** POST /v1/mandates: terms drawn at random, signed by `signerId` with `key`; `now` sets expires_at. */
export function mandateBody(commerce: CommerceContext, agents: string[], signerId: string, key: Uint8Array, now: number): fc.Arbitrary<unknown> {
  return fc
    .record({
      agentId: fc.constantFrom(signerId, ...agents),
      merchants: fc.subarray(commerce.merchants),
      skus: fc.subarray(commerce.skus, { maxLength: 3 }),
      perTransaction: fc.constantFrom(...AMOUNTS),
      total: fc.constantFrom(...AMOUNTS),
      // Commerce pays in USD: the others are 400 unsupported_currency, now and then.
      currency: fc.oneof({ arbitrary: fc.constant('USD'), weight: 4 }, { arbitrary: fc.constantFrom('CREDIT', 'EUR'), weight: 1 }),
      days: fc.integer({ min: 1, max: 365 }),
      autonomy: fc.option(
        fc.record({ mode: fc.constantFrom('autonomous', 'step_up', 'manual'), approval_for_new_merchants: fc.boolean(), threshold: fc.constantFrom(...AMOUNTS) }),
        { nil: undefined },
      ),
    })
    .map((t) => {
      const terms = {
        signerAgentId: signerId,
        agentId: t.agentId,
        scope: { merchants: t.merchants, categories: [], skus: t.skus },
        limits: { perTransaction: t.perTransaction, total: t.total, currency: t.currency },
        expiresAt: new Date(now + t.days * DAY).toISOString(),
      };
      return {
        signer_agent_id: terms.signerAgentId,
        agent_id: terms.agentId,
        scope: terms.scope,
        limits: { per_transaction: terms.limits.perTransaction, total: terms.limits.total, currency: terms.limits.currency },
        expires_at: terms.expiresAt,
        signature: signMandate(terms, key),
        // The threshold is in the mandate's currency (another one is refused before anything is stored).
        ...(t.autonomy
          ? { autonomy: { mode: t.autonomy.mode, approval_for_new_merchants: t.autonomy.approval_for_new_merchants, step_up_threshold: { amount: t.autonomy.threshold, currency: t.currency } } }
          : {}),
      };
    });
}

/** POST /v1/commerce/ucp/checkout/create under `signerId`'s own mandate, or null when it has none. */
export function checkoutBody(commerce: CommerceContext, signerId: string): fc.Arbitrary<unknown> | null {
  const mandateId = commerce.mandateFor.get(signerId);
  if (!mandateId || commerce.merchants.length === 0 || commerce.skus.length === 0) return null;
  const line = fc.record({ item: fc.record({ id: fc.constantFrom(...commerce.skus) }), quantity: fc.integer({ min: 1, max: 3 }) });
  return fc
    .record({
      merchant: fc.constantFrom(...commerce.merchants),
      lines: fc.array(line, { minLength: 1, maxLength: 3 }),
      codes: fc.option(fc.subarray(['10OFF', 'WELCOME10', 'NOPE']), { nil: undefined }),
      key: fc.uuid(),
    })
    .map((v) => ({
      buyer_agent_id: signerId,
      mandate_id: mandateId,
      merchant_domain: v.merchant,
      line_items: v.lines,
      buyer: { email: 'fuzz@example.com' },
      ...(v.codes ? { discount_codes: v.codes } : {}),
      idempotency_key: `fuzz-${v.key}`,
    }));
}

/** A post-purchase case on one of `deals` (the acting buyer's), asking back a part of its 15 USD. */
export function caseBody(deals: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc
    .record({ deal: deals, type: fc.constantFrom('return', 'refund', 'chargeback'), amount: fc.constantFrom('0.5', '1', '2'), key: freshIdempotencyKey() })
    .map((v) => ({ deal_id: v.deal, type: v.type, reason: 'fuzz: one item arrived broken', amount: v.amount, idempotency_key: v.key }));
}

/** Feedback on one of `deals` (the acting buyer's purchases): once per deal, then 409 feedback_exists. */
export function feedbackBody(deals: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc
    .record({ deal: deals, rating: fc.integer({ min: 1, max: 5 }), comment: fc.option(fc.constantFrom('fuzz: fine', ''), { nil: undefined }) })
    .map((v) => ({ deal_id: v.deal, rating: v.rating, ...(v.comment !== undefined ? { comment: v.comment } : {}) }));
}

/**
 * An update of an open case: evidence (the buyer or the operator, until the case is decided) or
 * the operator's first move to under_review. The example's `approved` is 409 from `open`.
 */
export function caseUpdateBody(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom('sha256:' + 'ab'.repeat(32), 'https://example.com/fuzz-photo.jpg').map((ref) => ({ evidence_refs: [ref], note: 'fuzz: a photo' })), weight: 3 },
    { arbitrary: fc.constant({ status: 'under_review', note: 'fuzz: looking' }), weight: 1 },
  );
}
