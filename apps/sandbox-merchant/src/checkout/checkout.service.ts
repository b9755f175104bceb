import { randomUUID } from 'node:crypto';
import { tokenOutcome, type Catalog } from '../catalog/catalog';
import { CheckoutError, type CheckoutSession, type PaymentInstrument, type Pricing, type RequestedLine, type UcpMessage } from './checkout';
import type { CheckoutStore } from './checkout.store';
import { PAYMENT_HANDLER_ID, type CheckoutView } from './checkout.view';
import { priceCart } from './pricing';
import { computeStatus, isExpired, isOpen } from './status';

// Checkout use cases (application): take domain input, return a CheckoutView or throw
// CheckoutError (no resource to show). Business problems with a resource are messages (HTTP 200).

export interface CartInput {
  lines: RequestedLine[];
  buyer?: Record<string, unknown>;
  context?: Record<string, unknown>;
  discountCodes?: string[];
}

export interface PaymentInput {
  instruments: Array<PaymentInstrument & { credential?: { type: string; token?: string } }>;
}

export interface CheckoutServiceDeps {
  catalog: Catalog;
  store: CheckoutStore;
  now: () => number;
  currency: string;
  ttlMs: number;
  escalationThreshold: number;
  pendingPaymentMs: number;
  baseUrl: () => string;
  /** Called once per completed checkout (sends the order webhook). */
  onCompleted: (session: CheckoutSession, pricing: Pricing) => void;
  /** Runs `fn` later (a `pending_token` payment settling); cancelled by stop. */
  schedule: (fn: () => void, ms: number) => void;
}

export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  create(input: CartInput): CheckoutView {
    if (input.lines.length > 0 && input.lines.every((l) => !this.deps.catalog.product(l.itemId))) {
      // Nothing sellable: no resource exists (UCP error_response, HTTP 200).
      throw new CheckoutError(200, 'item_unavailable', `None of the items is sold here: ${input.lines.map((l) => l.itemId).join(', ')}.`);
    }
    const now = this.deps.now();
    const session: CheckoutSession = {
      id: `chk_${randomUUID()}`,
      currency: this.deps.currency,
      createdAt: now,
      expiresAt: now + this.deps.ttlMs,
      state: 'open',
      ...cart(input),
    };
    this.deps.store.put(session);
    return this.view(session);
  }

  get(id: string): CheckoutView {
    return this.view(this.find(id));
  }

  /** PUT: full replacement of the buyer-editable fields (absent = cleared). */
  update(id: string, input: CartInput): CheckoutView {
    const session = this.modifiable(id, 'updated');
    const { approvedTotal } = session;
    Object.assign(session, { buyer: undefined, context: undefined, discountCodes: undefined }, cart(input), { approvedTotal });
    return this.view(session);
  }

  complete(id: string, payment: PaymentInput): CheckoutView {
    const session = this.modifiable(id, 'completed');
    const current = this.view(session);
    if (current.status !== 'ready_for_complete') return current; // its messages say what is missing
    const instrument = payment.instruments.find((i) => i.selected) ?? payment.instruments[0];
    const fail = (code: string, content: string) => ({ ...current, messages: [...current.messages, paymentError(code, content)] });
    if (!instrument) return fail('payment_failed', 'A payment instrument is required.');
    if (instrument.handler_id !== PAYMENT_HANDLER_ID) return fail('payment_failed', `Unknown payment handler ${instrument.handler_id}.`);
    const outcome = tokenOutcome(instrument.credential?.token);
    if (outcome === 'fail') return fail('payment_failed', 'The payment was declined.');
    if (!this.deps.catalog.reserve(session.lines)) return this.view(session); // sold out meanwhile: out_of_stock messages
    session.reserved = session.lines.map((l) => ({ ...l }));
    session.snapshot = current.pricing;
    session.payment = { instruments: [withoutToken(instrument)] };
    if (outcome === 'pending') {
      session.state = 'complete_in_progress';
      this.deps.schedule(() => this.settle(session.id), this.deps.pendingPaymentMs);
      return this.view(session);
    }
    this.finish(session);
    return this.view(session);
  }

  cancel(id: string): CheckoutView {
    const session = this.find(id);
    const status = this.view(session).status;
    if (status === 'completed' || status === 'canceled') {
      throw new CheckoutError(409, 'checkout_not_cancelable', `Checkout ${id} is ${status} and cannot be canceled.`);
    }
    if (session.state === 'complete_in_progress' && session.reserved) this.deps.catalog.release(session.reserved);
    session.state = 'canceled';
    return this.view(session);
  }

  /** Sandbox business UI: the buyer approves the escalated cart (up to its current total). */
  approve(id: string): CheckoutView {
    const session = this.modifiable(id, 'approved');
    session.approvedTotal = this.view(session).pricing.total;
    return this.view(session);
  }

  /** A `pending_token` payment settles: complete_in_progress → completed. */
  settle(id: string): void {
    const session = this.deps.store.get(id);
    if (session?.state === 'complete_in_progress') this.finish(session);
  }

  private finish(session: CheckoutSession): void {
    const orderId = `ord_${randomUUID()}`;
    session.order = { id: orderId, label: this.deps.store.nextOrderLabel(), permalink_url: `${this.deps.baseUrl()}/orders/${orderId}` };
    session.state = 'completed';
    this.deps.onCompleted(session, session.snapshot as Pricing);
  }

  private find(id: string): CheckoutSession {
    const session = this.deps.store.get(id);
    if (!session) throw new CheckoutError(404, 'not_found', `Checkout session ${id} was not found.`);
    // An expired session is canceled (UCP: any non-terminal → canceled); stored so it stays so.
    if (isExpired(session, this.deps.now())) session.state = 'canceled';
    return session;
  }

  private modifiable(id: string, verb: string): CheckoutSession {
    const session = this.find(id);
    const status = this.view(session).status;
    if (!isOpen(status)) throw new CheckoutError(409, 'checkout_not_modifiable', `Checkout ${id} is ${status} and cannot be ${verb}.`);
    return session;
  }

  private view(session: CheckoutSession): CheckoutView {
    const now = this.deps.now();
    const pricing = session.snapshot ?? priceCart(session.lines, session.discountCodes ?? [], this.deps.catalog, now);
    const result = computeStatus({
      session,
      cartMessages: pricing.messages,
      lineCount: pricing.lineItems.length,
      total: pricing.total,
      escalationThreshold: this.deps.escalationThreshold,
      now,
    });
    const messages: UcpMessage[] = session.snapshot ? [] : [...pricing.messages, ...result.messages];
    return { session, pricing, status: result.status, messages };
  }
}

function cart(input: CartInput): Partial<CheckoutSession> & { lines: RequestedLine[] } {
  return {
    lines: input.lines.map((l) => ({ itemId: l.itemId, quantity: l.quantity })),
    ...(input.buyer ? { buyer: input.buyer } : {}),
    ...(input.context ? { context: input.context } : {}),
    ...(input.discountCodes ? { discountCodes: [...input.discountCodes] } : {}),
  };
}

function paymentError(code: string, content: string): UcpMessage {
  return { type: 'error', code, content, severity: 'recoverable', path: '$.payment' };
}

function withoutToken(instrument: PaymentInput['instruments'][number]): PaymentInstrument {
  const { credential, ...rest } = instrument;
  return { ...rest, ...(credential ? { credential: { type: credential.type } } : {}) };
}
