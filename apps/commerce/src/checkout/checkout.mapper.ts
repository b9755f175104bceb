import { commerceV1, commerceV1Wire } from '@exchange/proto';
import type { ApprovalDecision } from './approval';
import type { Actor, SessionMode } from './session.model';

// proto ⇄ domain for the checkout RPCs (the session's and the purchase's proto forms live with their events).
export { toProtoPurchase, toProtoSession } from './checkout.events';

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
