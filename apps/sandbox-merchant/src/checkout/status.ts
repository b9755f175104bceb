import type { CheckoutSession, CheckoutStatus, UcpMessage } from './checkout';

// The UCP checkout status (ucp-digest §3.1), recomputed on every response (domain, pure):
//   incomplete <-> requires_escalation   (high-value cart; buyer approves on the business UI)
//   incomplete  -> ready_for_complete    (cart valid, buyer email known)
//   ready_for_complete -> complete_in_progress -> completed   (complete; `pending_token` pays later)
//   ready_for_complete -> completed       (complete; payment settles at once)
//   any non-terminal -> canceled          (cancel, or the session expired)

export interface StatusInput {
  session: Pick<CheckoutSession, 'state' | 'buyer' | 'approvedTotal' | 'expiresAt'>;
  /** Messages of the cart (pricing): errors here keep the session incomplete. */
  cartMessages: readonly UcpMessage[];
  lineCount: number;
  total: number;
  /** Carts whose total is above this (minor units) need the buyer's approval. */
  escalationThreshold: number;
  now: number;
}

export interface StatusResult {
  status: CheckoutStatus;
  /** Messages the status itself adds (missing information, escalation reason). */
  messages: UcpMessage[];
}

const TERMINAL: ReadonlySet<CheckoutStatus> = new Set(['completed', 'canceled']);

export function isTerminal(status: CheckoutStatus): boolean {
  return TERMINAL.has(status);
}

/** True for the states update and complete may act on. */
export function isOpen(status: CheckoutStatus): boolean {
  return status === 'incomplete' || status === 'requires_escalation' || status === 'ready_for_complete';
}

export function isExpired(session: Pick<CheckoutSession, 'state' | 'expiresAt'>, now: number): boolean {
  return session.state === 'open' && now > session.expiresAt;
}

export function needsEscalation(total: number, threshold: number, approvedTotal?: number): boolean {
  return total > threshold && (approvedTotal === undefined || total > approvedTotal);
}

export function computeStatus(input: StatusInput): StatusResult {
  const { session } = input;
  if (session.state !== 'open') return { status: session.state, messages: [] };
  if (isExpired(session, input.now)) return { status: 'canceled', messages: [] };
  const messages: UcpMessage[] = [];
  if (input.lineCount === 0) {
    messages.push({ type: 'error', code: 'missing', content: 'At least one available line item is required.', severity: 'recoverable', path: '$.line_items' });
  }
  const email = session.buyer?.email;
  if (typeof email !== 'string' || email === '') {
    messages.push({ type: 'error', code: 'missing', content: 'A buyer email is required.', severity: 'recoverable', path: '$.buyer.email' });
  }
  const blocking = [...input.cartMessages, ...messages].some((m) => m.type === 'error');
  if (blocking) return { status: 'incomplete', messages };
  // Escalation only once the cart is otherwise complete, so the buyer approves a final cart.
  if (needsEscalation(input.total, input.escalationThreshold, session.approvedTotal)) {
    messages.push({
      type: 'error',
      code: 'high_value_order',
      content: `Orders above ${input.escalationThreshold} (minor units) need the buyer's approval at continue_url.`,
      severity: 'requires_buyer_review',
    });
    return { status: 'requires_escalation', messages };
  }
  return { status: 'ready_for_complete', messages };
}
