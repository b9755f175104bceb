import { formatAmount } from '@exchange/platform';
import type { LifecycleRow } from '../lifecycle/lifecycle.model';
import type { CaseEventRecord } from '../cases/case.model';

// A purchase's timeline (domain, pure): the session's lifecycle, the merchant's order webhooks,
// the settlement receipt, the events of the deal's cases and its feedback, merged in time order.
// Ties (one transaction writes several rows at one instant) keep a stable order: by source
// (session, webhook, receipt, case, feedback), then source id, then the source's own sequence.

export interface OrderWebhookFact {
  webhookId: string;
  orderId: string;
  evidenceId: string | null;
  receivedAt: Date;
}

export interface ReceiptFact {
  receiptId: string;
  dealId: string;
  amount: bigint;
  currency: string;
  completedAt: Date;
}

/** Case events as the cases area records them (cases.repo eventsOfDeal). */
export type CaseEventFact = CaseEventRecord;

export interface FeedbackFact {
  feedbackId: string;
  rating: number;
  comment: string;
  createdAt: Date;
}

export interface TimelineItem {
  at: Date;
  /** "session.<kind>", "order_webhook", "receipt", "case.<event type>", "feedback". */
  type: string;
  sourceId: string;
  details: Record<string, unknown>;
}

interface Ranked extends TimelineItem {
  rank: number;
  seq: number;
}

export interface TimelineSources {
  commerceSessionId: string;
  lifecycle: readonly LifecycleRow[];
  webhooks: readonly OrderWebhookFact[];
  receipt: ReceiptFact | null;
  caseEvents: readonly CaseEventFact[];
  feedback: readonly FeedbackFact[];
}

const lifecycleItem = (sessionId: string, r: LifecycleRow): Ranked => ({
  at: r.at,
  type: `session.${r.kind}`,
  sourceId: sessionId,
  details: { seq: r.seq, status: r.status, approval: r.approval, payment_stage: r.paymentStage, total: formatAmount(r.total), currency: r.currency, reason: r.reason, actor: r.actor },
  rank: 0,
  seq: r.seq,
});

const webhookItem = (w: OrderWebhookFact): Ranked => ({
  at: w.receivedAt,
  type: 'order_webhook',
  sourceId: w.webhookId,
  details: { webhook_id: w.webhookId, order_id: w.orderId, evidence_id: w.evidenceId },
  rank: 1,
  seq: 0,
});

const receiptItem = (r: ReceiptFact): Ranked => ({
  at: r.completedAt,
  type: 'receipt',
  sourceId: r.receiptId,
  details: { receipt_id: r.receiptId, deal_id: r.dealId, amount: formatAmount(r.amount), currency: r.currency },
  rank: 2,
  seq: 0,
});

const caseItem = (e: CaseEventFact): Ranked => ({
  at: e.at,
  type: `case.${e.type}`,
  sourceId: e.caseId,
  details: {
    event_id: e.eventId,
    seq: e.seq,
    from_status: e.fromStatus,
    to_status: e.toStatus,
    actor: e.actor,
    note: e.note,
    evidence_refs: e.evidenceRefs,
    amount: e.amount === null ? null : formatAmount(e.amount),
    receipt_id: e.receiptId,
  },
  rank: 3,
  seq: e.seq,
});

const feedbackItem = (f: FeedbackFact): Ranked => ({
  at: f.createdAt,
  type: 'feedback',
  sourceId: f.feedbackId,
  details: { feedback_id: f.feedbackId, rating: f.rating, comment: f.comment },
  rank: 4,
  seq: 0,
});

function compare(a: Ranked, b: Ranked): number {
  return a.at.getTime() - b.at.getTime() || a.rank - b.rank || (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0) || a.seq - b.seq;
}

/** Every entry of the purchase, oldest first. */
export function buildTimeline(src: TimelineSources): TimelineItem[] {
  const items: Ranked[] = [
    ...src.lifecycle.map((r) => lifecycleItem(src.commerceSessionId, r)),
    ...src.webhooks.map(webhookItem),
    ...(src.receipt ? [receiptItem(src.receipt)] : []),
    ...src.caseEvents.map(caseItem),
    ...src.feedback.map(feedbackItem),
  ];
  return items.sort(compare).map(({ at, type, sourceId, details }) => ({ at, type, sourceId, details }));
}
