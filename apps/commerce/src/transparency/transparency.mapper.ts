import { formatAmount } from '@exchange/platform';
import { commerceV1Wire, type commerceV1, type DomainEnum } from '@exchange/proto';
import type { CheckoutStatus } from '../domain/ucp-types';
import type { ApprovalState } from '../checkout/session.model';
import { toProtoPurchase, toProtoSession } from '../checkout/checkout.mapper';
import { toProtoIntent } from '../intents/intents.mapper';
import type { AgentSpendSavings, CurrencyRollup } from './rollups.model';
import type { ShadowComparison } from './shadow-compare';
import type { SessionSnapshot } from './shadow-diff';
import type { PurchaseTimeline, SessionRecordView, ShadowCompareResult } from './transparency.service';

// Transparency's domain results → proto answers (amounts as exchange decimals, enums through the
// generated wire tables).

const checkoutStatus: DomainEnum<typeof commerceV1Wire.checkoutStatus, CheckoutStatus> = commerceV1Wire.checkoutStatus;
const approvalState: DomainEnum<typeof commerceV1Wire.approvalState, ApprovalState> = commerceV1Wire.approvalState;

const snapshot = (s: SessionSnapshot): commerceV1.SessionSnapshot => ({
  commerceSessionId: s.commerceSessionId,
  status: checkoutStatus.toProto(s.status),
  approval: approvalState.toProto(s.approval),
  currency: s.currency,
  total: formatAmount(s.total),
  listTotal: formatAmount(s.listTotal),
  savings: formatAmount(s.savings),
  discountCodes: s.discountCodes,
  unavailableItems: s.unavailableItems,
  createdAt: s.createdAt,
});

const comparison = (c: ShadowComparison): commerceV1.ShadowComparison => ({
  merchantDomain: c.merchantDomain,
  buyerAgentId: c.buyerAgentId,
  cartKey: c.cartKey,
  shadow: snapshot(c.shadow),
  live: c.live ? snapshot(c.live) : undefined,
  differences: c.differences.map((d) => ({ field: d.field, shadow: d.shadow, live: d.live })),
});

export function toCompareShadowResponse(r: ShadowCompareResult): commerceV1.CompareShadowResponse {
  return {
    from: r.from,
    to: r.to,
    comparisons: r.comparisons.map(comparison),
    summary: { shadowSessions: String(r.summary.shadowSessions), matched: String(r.summary.matched), withDifferences: String(r.summary.withDifferences) },
    page: { nextCursor: r.nextCursor },
  };
}

const currencyRollup = (c: CurrencyRollup): commerceV1.CurrencyRollup => ({
  currency: c.currency,
  spend: formatAmount(c.spend),
  savings: formatAmount(c.savings),
  purchases: String(c.purchases),
  escalations: String(c.escalations),
  approvalsDenied: String(c.approvalsDenied),
  returns: String(c.returns),
  refunds: String(c.refunds),
  chargebacks: String(c.chargebacks),
  refunded: formatAmount(c.refunded),
});

export function toMonthlyRollupResponse(r: { window: string; from: Date; to: Date; currencies: CurrencyRollup[] }): commerceV1.GetMonthlyRollupResponse {
  return { window: r.window, from: r.from, to: r.to, currencies: r.currencies.map(currencyRollup) };
}

const agentRow = (a: AgentSpendSavings): commerceV1.AgentSpendSavings => ({
  agentId: a.agentId,
  currency: a.currency,
  spend: formatAmount(a.spend),
  savings: formatAmount(a.savings),
  purchases: String(a.purchases),
  refunded: formatAmount(a.refunded),
  netSpend: formatAmount(a.netSpend),
});

export function toSpendSavingsResponse(r: { window: string | null; rows: AgentSpendSavings[]; nextCursor: string }): commerceV1.GetSpendSavingsRollupResponse {
  return { window: r.window ?? undefined, rows: r.rows.map(agentRow), page: { nextCursor: r.nextCursor } };
}

export function toSessionTransparencyResponse(v: SessionRecordView): commerceV1.GetSessionTransparencyResponse {
  return {
    session: toProtoSession(v.session),
    lifecycle: v.lifecycle.map((e) => ({ seq: e.seq, kind: e.kind, from: e.from ?? undefined, to: e.to, reason: e.reason ?? undefined, at: e.at })),
    evidence: v.evidence.map((e) => ({ ...e })),
    chainValid: v.chainValid,
    purchase: v.purchase ? toProtoPurchase(v.purchase) : undefined,
    intent: v.intent ? toProtoIntent(v.intent) : undefined,
    caseIds: v.caseIds,
  };
}

export function toPurchaseTimelineResponse(t: PurchaseTimeline): commerceV1.GetPurchaseTimelineResponse {
  return {
    dealId: t.dealId,
    commerceSessionId: t.commerceSessionId,
    entries: t.entries.map((e) => ({ at: e.at, type: e.type, sourceId: e.sourceId, detailsJson: JSON.stringify(e.details) })),
  };
}
