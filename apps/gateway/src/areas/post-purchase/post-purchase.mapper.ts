import { commerceV1Wire, type commerceV1 } from '@exchange/proto';
import { CommerceContractError, contractChecks } from '../../lib/mapper-kit';
import type { CaseEventJson, CaseUpdateJson, PostPurchaseCaseJson } from './post-purchase.schemas';

// Proto → REST for post-purchase cases. Enums through the generated commerceV1Wire tables;
// amounts stay decimal strings; the refund receipt JSON text becomes the object it holds.

const { required, enumToJson, parsedJson } = contractChecks((what) => new CommerceContractError(what));
const iso = (date: Date | undefined, what: string) => required(date, what).toISOString();
const EVENT_TYPES = ['opened', 'status_changed', 'evidence_added', 'refund_credited', 'refund_refused'] as const;

export function caseToJson(value: commerceV1.PostPurchaseCase | undefined): PostPurchaseCaseJson {
  const c = required(value, 'case');
  return {
    case_id: c.caseId,
    deal_id: c.dealId,
    buyer_agent_id: c.buyerAgentId,
    merchant_domain: c.merchantDomain,
    type: enumToJson(commerceV1Wire.caseType, c.type, 'case type'),
    reason: c.reason,
    amount: c.amount,
    currency: c.currency,
    status: enumToJson(commerceV1Wire.caseStatus, c.status, 'case status'),
    evidence_refs: [...c.evidenceRefs],
    refund_state: enumToJson(commerceV1Wire.refundState, c.refundState, 'case refund_state'),
    refund_receipt_id: c.refundReceiptId ?? null,
    created_at: iso(c.createdAt, 'case created_at'),
    updated_at: iso(c.updatedAt, 'case updated_at'),
  };
}

function receiptObject(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  const value = parsedJson(text, 'refund_receipt_json');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CommerceContractError('refund_receipt_json');
  return value as Record<string, unknown>;
}

export function caseUpdateToJson(res: commerceV1.UpdateCaseResponse): CaseUpdateJson {
  return { case: caseToJson(res.case), refund_receipt: receiptObject(res.refundReceiptJson) };
}

export function caseEventToJson(e: commerceV1.CaseEvent): CaseEventJson {
  const type = EVENT_TYPES.find((t) => t === e.type);
  if (type === undefined) throw new CommerceContractError('case event type');
  const status = (value: number | undefined, what: string) => (value === undefined ? null : enumToJson(commerceV1Wire.caseStatus, value, what));
  return {
    event_id: e.eventId,
    case_id: e.caseId,
    seq: e.seq,
    type,
    from_status: status(e.fromStatus, 'case event from_status'),
    to_status: status(e.toStatus, 'case event to_status'),
    actor: e.actor,
    note: e.note ?? null,
    evidence_refs: [...e.evidenceRefs],
    amount: e.amount ?? null,
    receipt_id: e.receiptId ?? null,
    at: iso(e.at, 'case event at'),
  };
}
