import { formatAmount } from '@exchange/platform';
import { commerceV1, commerceV1Wire } from '@exchange/proto';
import type { ApprovalDecision } from './approval';
import type { Actor, SessionMode, PurchaseRecord } from './session.model';

// proto ⇄ domain for the checkout RPCs (the session's proto form lives with its events).
export { toProtoSession } from './checkout.events';

export function actorOf(actor: commerceV1.Actor | undefined): Actor {
  return { agentId: actor?.agentId ?? '', operator: actor?.operator ?? false };
}

/** UNSPECIFIED → undefined (the default applies). */
export function modeOf(mode: commerceV1.SessionMode): SessionMode | undefined {
  return commerceV1Wire.sessionMode.toWire(mode);
}

export function decisionOf(decision: commerceV1.ApprovalDecision): ApprovalDecision | undefined {
  const wire = commerceV1Wire.approvalDecision.toWire(decision);
  return wire === 'approve' || wire === 'deny' ? wire : undefined;
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
  };
}
