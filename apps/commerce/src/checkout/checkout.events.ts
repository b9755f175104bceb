import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { formatAmount } from '@exchange/platform';
import { commerceV1Events, commerceV1Wire, type commerceV1, type DomainEnum } from '@exchange/proto';
import type pg from 'pg';
import type { CheckoutStatus } from '../domain/ucp-types';
import { appendLifecycle } from '../lifecycle/lifecycle.repo';
import { savingsOf } from './checkout-totals';
import type { CheckoutOrigin } from './origin';
import type { ApprovalState, CheckoutSessionRecord, PaymentStage, PurchaseRecord, SessionMode } from './session.model';

// Outbox writers of checkout (call them inside the transaction of the change) and the session's
// and the purchase's proto forms, shared with the gRPC answers (checkout.mapper re-exports them)
// and the saga's events (events/purchase.events.ts).

const checkoutStatus: DomainEnum<typeof commerceV1Wire.checkoutStatus, CheckoutStatus> = commerceV1Wire.checkoutStatus;
const approvalState: DomainEnum<typeof commerceV1Wire.approvalState, ApprovalState> = commerceV1Wire.approvalState;
const sessionMode: DomainEnum<typeof commerceV1Wire.sessionMode, SessionMode> = commerceV1Wire.sessionMode;
const paymentStage: DomainEnum<typeof commerceV1Wire.paymentStage, PaymentStage> = commerceV1Wire.paymentStage;

export function toProtoSession(s: CheckoutSessionRecord): commerceV1.CheckoutSession {
  return {
    commerceSessionId: s.commerceSessionId,
    buyerAgentId: s.buyerAgentId,
    mandateId: s.mandateId,
    merchantDomain: s.merchantDomain,
    mode: sessionMode.toProto(s.mode),
    status: checkoutStatus.toProto(s.status),
    approval: approvalState.toProto(s.approval),
    approvalReason: s.approvalReason ?? undefined,
    merchantCheckoutId: s.merchantCheckoutId,
    currency: s.currency,
    total: formatAmount(s.total),
    listTotal: formatAmount(s.listTotal),
    savings: formatAmount(savingsOf(s)),
    discountCodes: s.discountCodes,
    merchantCheckoutJson: JSON.stringify(s.merchantCheckout),
    paymentStage: paymentStage.toProto(s.paymentStage),
    holdId: s.holdId ?? undefined,
    dealId: s.dealId ?? undefined,
    receiptId: s.receiptId ?? undefined,
    orderId: s.orderId ?? undefined,
    continueUrl: s.continueUrl ?? undefined,
    evidenceHead: s.evidenceHead,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    intentId: s.intentId ?? undefined,
    failureReason: s.failureReason ?? undefined,
    origin: toProtoOrigin(s.origin),
  };
}

export function toProtoPurchase(p: PurchaseRecord): commerceV1.Purchase {
  return {
    dealId: p.dealId,
    commerceSessionId: p.commerceSessionId,
    buyerAgentId: p.buyerAgentId,
    merchantDomain: p.merchantDomain,
    amount: formatAmount(p.amount),
    currency: p.currency,
    receiptId: p.receiptId,
    receiptJson: JSON.stringify(p.receipt),
    orderId: p.orderId ?? undefined,
    completedAt: p.completedAt,
    origin: toProtoOrigin(p.origin),
  };
}

export function toProtoOrigin(o: CheckoutOrigin | null): commerceV1.CheckoutOrigin | undefined {
  if (o === null) return undefined;
  return o.kind === 'contract' ? { contractId: o.contractId } : { workflowRunId: o.workflowRunId };
}

export type CheckoutEventVerb = 'created' | 'updated' | 'canceled' | 'approval_requested' | 'approval_decided';

/** exchange.commerce.checkout.<verb> with CheckoutChanged {session} as data, and the session's lifecycle row for the change. */
export async function emitCheckoutEvent(client: pg.ClientBase, verb: CheckoutEventVerb, s: CheckoutSessionRecord, actor: string | null): Promise<void> {
  await appendLifecycle(client, verb, s, actor);
  await enqueueEvent(
    pgSqlExecutor(client),
    newEvent({
      type: `exchange.commerce.checkout.${verb}`,
      source: 'commerce',
      subjectId: s.commerceSessionId,
      actor,
      data: commerceV1Events.CheckoutChanged.toJSON({ session: toProtoSession(s) }),
    }),
  );
}
