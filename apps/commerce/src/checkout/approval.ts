import { canonicalize } from '@exchange/crypto';
import { formatAmount } from '@exchange/platform';
import type { ApprovalNeed } from '../mandates/mandate.model';
import type { ApprovalReason, ApprovalState } from './session.model';

// Step-up approval of a checkout by the mandate's signer (README "Approval signature"): an
// ed25519 signature over the canonical JSON (RFC 8785) of exactly these five fields, the total
// as the exchange decimal string of the session's current total.

export type ApprovalDecision = 'approve' | 'deny';

export interface ApprovalPayload {
  commerce_session_id: string;
  decision: ApprovalDecision;
  approver_id: string;
  total: string;
  currency: string;
}

export function approvalPayload(s: { commerceSessionId: string; total: bigint; currency: string }, decision: ApprovalDecision, approverId: string): ApprovalPayload {
  return { commerce_session_id: s.commerceSessionId, decision, approver_id: approverId, total: formatAmount(s.total), currency: s.currency };
}

/** The bytes the approver signs. */
export function approvalMessage(payload: ApprovalPayload): Uint8Array {
  return Buffer.from(canonicalize(payload), 'utf8');
}

export interface ApprovalStatus {
  approval: ApprovalState;
  approvalReason: ApprovalReason | null;
}

/**
 * The approval a session has after the mandate rules ran again for `total` (create, update,
 * refresh). A decision stays only while the total it was given for stands: an approval for
 * another total, or a denial of an older cart, goes back to pending when approval is still needed.
 */
export function deriveApproval(
  current: { approval: ApprovalState; approvalReason: ApprovalReason | null; approvedTotal: bigint | null; total: bigint } | null,
  need: ApprovalNeed,
  total: bigint,
): ApprovalStatus {
  if (need === null) return { approval: 'not_required', approvalReason: null };
  if (current?.approval === 'approved' && current.approvedTotal === total) return { approval: 'approved', approvalReason: current.approvalReason ?? need };
  if (current?.approval === 'denied' && current.total === total) return { approval: 'denied', approvalReason: current.approvalReason ?? need };
  return { approval: 'pending', approvalReason: need };
}

/** Whether a change of approval asks the signer anew (event checkout.approval_requested). */
export function approvalNewlyRequested(before: ApprovalState | null, after: ApprovalState): boolean {
  return after === 'pending' && before !== 'pending';
}

/** An ed25519 signature is base64 of 64 bytes: anything else is refused without asking identity. */
export function isSignatureShaped(signature: string): boolean {
  return /^[A-Za-z0-9+/]{86}==$/.test(signature);
}
