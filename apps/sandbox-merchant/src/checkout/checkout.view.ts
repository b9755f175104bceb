import { CHECKOUT_CAPABILITIES, UCP_VERSION, type CheckoutSession, type CheckoutStatus, type UcpMessage } from './checkout';
import type { Pricing } from './checkout';
import { isTerminal } from './status';

// Renders the UCP JSON of a checkout and of an error_response (domain → wire, pure).

export const PAYMENT_HANDLER_NAME = 'local.sandbox_merchant.token';
export const PAYMENT_HANDLER_ID = 'mock_payment_handler';

export interface ViewContext {
  /** The REST endpoint / public base URL, no trailing slash. */
  baseUrl: string;
}

export function responseUcp(status: 'success' | 'error' = 'success') {
  return {
    version: UCP_VERSION,
    status,
    capabilities: Object.fromEntries(CHECKOUT_CAPABILITIES.map((name) => [name, [{ version: UCP_VERSION }]])),
    payment_handlers: { [PAYMENT_HANDLER_NAME]: [{ id: PAYMENT_HANDLER_ID, version: UCP_VERSION }] },
  };
}

export function links(baseUrl: string) {
  return [
    { type: 'terms_of_service', url: `${baseUrl}/terms` },
    { type: 'privacy_policy', url: `${baseUrl}/privacy` },
  ];
}

/** The business UI where the buyer finishes an escalated checkout (sandbox: approve or not). */
export function continueUrl(baseUrl: string, checkoutId: string): string {
  return `${baseUrl}/checkout/${encodeURIComponent(checkoutId)}`;
}

export interface CheckoutView {
  session: CheckoutSession;
  pricing: Pricing;
  status: CheckoutStatus;
  messages: readonly UcpMessage[];
}

export function renderCheckout(view: CheckoutView, ctx: ViewContext): Record<string, unknown> {
  const { session, pricing, status } = view;
  const body: Record<string, unknown> = {
    ucp: responseUcp(),
    id: session.id,
    line_items: pricing.lineItems,
    status,
    currency: session.currency,
    totals: pricing.totals,
    links: links(ctx.baseUrl),
  };
  if (session.buyer) body.buyer = session.buyer;
  if (session.context) body.context = session.context;
  if (session.discountCodes) body.discounts = { codes: session.discountCodes, applied: pricing.applied };
  if (view.messages.length > 0) body.messages = view.messages;
  // MUST for requires_escalation, SHOULD for other non-terminal states, omitted for terminal ones.
  if (!isTerminal(status)) body.continue_url = continueUrl(ctx.baseUrl, session.id);
  body.expires_at = new Date(session.expiresAt).toISOString();
  if (session.payment) body.payment = session.payment;
  if (session.order) body.order = session.order;
  return body;
}

export function renderError(messages: readonly UcpMessage[], continueAt?: string): Record<string, unknown> {
  return { ucp: { version: UCP_VERSION, status: 'error' }, messages, ...(continueAt ? { continue_url: continueAt } : {}) };
}
