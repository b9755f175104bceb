import { commerceV1Wire, type commerceV1 } from '@exchange/proto';
import { CommerceContractError, contractChecks } from '../../lib/mapper-kit';
import { purchaseToJson, sessionToJson } from '../commerce/commerce.mapper';
import { SHADOW_FIELDS } from './transparency.schemas';
import type { MonthlyRollupJson, PurchaseTimelineJson, SessionSnapshotJson, SessionTransparencyJson, ShadowCompareJson, SpendSavingsPageJson } from './transparency.schemas';

// Proto → REST for commerce transparency. Counts travel as int64 decimal text and become JSON
// integers; details_json becomes the object it holds. Pure functions, no I/O.

const { required, enumToJson, parsedJson } = contractChecks((what) => new CommerceContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();

/** An int64 count (decimal text in proto) as a JSON integer. */
function count(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new CommerceContractError(what);
  return n;
}

function snapshotToJson(s: commerceV1.SessionSnapshot): SessionSnapshotJson {
  return {
    commerce_session_id: s.commerceSessionId,
    status: enumToJson(commerceV1Wire.checkoutStatus, s.status, 'snapshot status'),
    approval: enumToJson(commerceV1Wire.approvalState, s.approval, 'snapshot approval'),
    currency: s.currency,
    total: s.total,
    list_total: s.listTotal,
    savings: s.savings,
    discount_codes: [...s.discountCodes],
    unavailable_items: [...s.unavailableItems],
    created_at: iso(s.createdAt, 'snapshot created_at'),
  };
}

function shadowField(field: string): (typeof SHADOW_FIELDS)[number] {
  if (!(SHADOW_FIELDS as readonly string[]).includes(field)) throw new CommerceContractError('shadow difference field');
  return field as (typeof SHADOW_FIELDS)[number];
}

export function shadowCompareToJson(res: commerceV1.CompareShadowResponse): ShadowCompareJson {
  const summary = required(res.summary, 'shadow summary');
  return {
    from: iso(res.from, 'window from'),
    to: iso(res.to, 'window to'),
    comparisons: res.comparisons.map((c) => ({
      merchant_domain: c.merchantDomain,
      buyer_agent_id: c.buyerAgentId,
      cart_key: c.cartKey,
      shadow: snapshotToJson(required(c.shadow, 'shadow snapshot')),
      live: c.live ? snapshotToJson(c.live) : null,
      differences: c.differences.map((d) => ({ field: shadowField(d.field), shadow: d.shadow, live: d.live })),
    })),
    summary: {
      shadow_sessions: count(summary.shadowSessions, 'shadow_sessions'),
      matched: count(summary.matched, 'matched'),
      with_differences: count(summary.withDifferences, 'with_differences'),
    },
    next_cursor: res.page && res.page.nextCursor !== '' ? res.page.nextCursor : null,
  };
}

export function monthlyRollupToJson(res: commerceV1.GetMonthlyRollupResponse): MonthlyRollupJson {
  return {
    window: res.window,
    from: iso(res.from, 'window from'),
    to: iso(res.to, 'window to'),
    currencies: res.currencies.map((c) => ({
      currency: c.currency,
      spend: c.spend,
      savings: c.savings,
      purchases: count(c.purchases, 'purchases'),
      escalations: count(c.escalations, 'escalations'),
      approvals_denied: count(c.approvalsDenied, 'approvals_denied'),
      returns: count(c.returns, 'returns'),
      refunds: count(c.refunds, 'refunds'),
      chargebacks: count(c.chargebacks, 'chargebacks'),
      refunded: c.refunded,
    })),
  };
}

export function spendSavingsToJson(res: commerceV1.GetSpendSavingsRollupResponse): SpendSavingsPageJson {
  return {
    window: res.window ?? null,
    data: res.rows.map((r) => ({
      agent_id: r.agentId,
      currency: r.currency,
      spend: r.spend,
      savings: r.savings,
      purchases: count(r.purchases, 'purchases'),
      refunded: r.refunded,
      net_spend: r.netSpend,
    })),
    next_cursor: res.page && res.page.nextCursor !== '' ? res.page.nextCursor : null,
  };
}

export function sessionTransparencyToJson(res: commerceV1.GetSessionTransparencyResponse): SessionTransparencyJson {
  const i = res.intent;
  return {
    session: sessionToJson(res.session),
    lifecycle: res.lifecycle.map((e) => ({ seq: e.seq, kind: e.kind, from: e.from ?? null, to: e.to, reason: e.reason ?? null, at: iso(e.at, 'lifecycle at') })),
    evidence: res.evidence.map((e) => ({
      evidence_id: e.evidenceId,
      seq: e.seq,
      kind: e.kind,
      operation: e.operation,
      content_sha256: e.contentSha256,
      hash: e.hash,
      recorded_at: iso(e.recordedAt, 'evidence recorded_at'),
    })),
    chain_valid: res.chainValid,
    purchase: res.purchase ? purchaseToJson(res.purchase) : null,
    intent: i
      ? {
          intent_id: i.intentId,
          agent_id: i.agentId,
          description: i.description,
          merchants: [...i.merchants],
          skus: [...i.skus],
          budget: { amount: required(i.budget, 'intent budget').amount, currency: required(i.budget, 'intent budget').currency },
          requires_refundability: i.requiresRefundability,
          expires_at: iso(i.expiresAt, 'intent expires_at'),
          created_at: iso(i.createdAt, 'intent created_at'),
        }
      : null,
    case_ids: [...res.caseIds],
  };
}

export function timelineToJson(res: commerceV1.GetPurchaseTimelineResponse): PurchaseTimelineJson {
  return {
    deal_id: res.dealId,
    commerce_session_id: res.commerceSessionId,
    entries: res.entries.map((e) => {
      const details = parsedJson(e.detailsJson, 'timeline details_json');
      if (typeof details !== 'object' || details === null || Array.isArray(details)) throw new CommerceContractError('timeline details_json');
      return { at: iso(e.at, 'timeline at'), type: e.type, source_id: e.sourceId, details: details as Record<string, unknown> };
    }),
  };
}
