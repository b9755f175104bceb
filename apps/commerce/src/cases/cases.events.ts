import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { formatAmount } from '@exchange/platform';
import { commerceV1, commerceV1Wire, type DomainEnum } from '@exchange/proto';
import type pg from 'pg';
import type { CaseEventRecord, CaseRecord, CaseStatus, CaseType, RefundState } from './case.model';

// Case → proto (the RPC answers and the event payloads share it) and the outbox writer: call it
// inside the transaction of the change. Event exchange.commerce.case.<event type>, data
// {case: PostPurchaseCase, event: CaseEvent} as proto3 JSON (the case as that transaction left it).

export const caseType: DomainEnum<typeof commerceV1Wire.caseType, CaseType> = commerceV1Wire.caseType;
export const caseStatus: DomainEnum<typeof commerceV1Wire.caseStatus, CaseStatus> = commerceV1Wire.caseStatus;
const refundState: DomainEnum<typeof commerceV1Wire.refundState, RefundState> = commerceV1Wire.refundState;

export function toProtoCase(c: CaseRecord): commerceV1.PostPurchaseCase {
  return {
    caseId: c.caseId,
    dealId: c.dealId,
    buyerAgentId: c.buyerAgentId,
    merchantDomain: c.merchantDomain,
    type: caseType.toProto(c.type),
    reason: c.reason,
    amount: formatAmount(c.amount),
    currency: c.currency,
    status: caseStatus.toProto(c.status),
    evidenceRefs: [...c.evidenceRefs],
    refundState: refundState.toProto(c.refundState),
    refundReceiptId: c.refundReceiptId ?? undefined,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export function toProtoCaseEvent(e: CaseEventRecord): commerceV1.CaseEvent {
  return {
    eventId: e.eventId,
    caseId: e.caseId,
    seq: e.seq,
    type: e.type,
    fromStatus: e.fromStatus === null ? undefined : caseStatus.toProto(e.fromStatus),
    toStatus: e.toStatus === null ? undefined : caseStatus.toProto(e.toStatus),
    actor: e.actor,
    note: e.note ?? undefined,
    evidenceRefs: [...e.evidenceRefs],
    amount: e.amount === null ? undefined : formatAmount(e.amount),
    receiptId: e.receiptId ?? undefined,
    at: e.at,
  };
}

export async function enqueueCaseEvent(client: pg.ClientBase, c: CaseRecord, e: CaseEventRecord): Promise<void> {
  const data = { case: commerceV1.PostPurchaseCase.toJSON(toProtoCase(c)), event: commerceV1.CaseEvent.toJSON(toProtoCaseEvent(e)) };
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({ type: `exchange.commerce.case.${e.type}`, source: 'commerce', subjectId: c.caseId, actor: e.actor, data }),
  );
}
