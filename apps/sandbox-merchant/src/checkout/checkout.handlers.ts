import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutMessage, UcpValidator } from '@exchange/ucp';
import { canonicalJson } from '../idempotency/canonical-json';
import { fingerprint, type IdempotencyStore, type StoredAnswer } from '../idempotency/idempotency';
import { CHECKOUT_CAPABILITIES, CheckoutError } from './checkout';
import { cartInput, paymentInput } from './checkout.mapper';
import type { CheckoutService } from './checkout.service';
import { continueUrl, renderCheckout, renderError, type CheckoutView } from './checkout.view';

// The UCP REST binding of checkout (transport): /checkout-sessions create, get, update (PUT, full
// replacement), complete, cancel; plus the sandbox's business UI for escalated sessions.

export interface CheckoutHandlerDeps {
  service: CheckoutService;
  idempotency: IdempotencyStore;
  ucp: UcpValidator;
  baseUrl: () => string;
}

type IdParams = { Params: { id: string } };

/** Limits the schema leaves open; beyond them a cart is refused before any arithmetic. */
const MAX_LINES = 100;
const MAX_QUANTITY = 1_000_000;
const MAX_KEY_LENGTH = 255;

export function invalidRequest(content: string): CheckoutError {
  return new CheckoutError(400, 'invalid_request', content);
}

export function registerCheckoutHandlers(app: FastifyInstance, deps: CheckoutHandlerDeps): void {
  const { service, ucp } = deps;
  const render = (view: CheckoutView) => renderCheckout(view, { baseUrl: deps.baseUrl() });

  const validated = (message: CheckoutMessage, body: unknown): unknown => {
    const result = ucp.validateCheckout(message, body, CHECKOUT_CAPABILITIES);
    if (!result.valid) {
      throw invalidRequest(result.errors.slice(0, 10).map((e) => `${e.pointer || '/'} ${e.message}`).join('; '));
    }
    const lines = (body as { line_items?: Array<{ quantity: number }> }).line_items ?? [];
    if (lines.length > MAX_LINES) throw invalidRequest(`at most ${MAX_LINES} line items`);
    if (lines.some((l) => l.quantity > MAX_QUANTITY)) throw invalidRequest(`quantity at most ${MAX_QUANTITY}`);
    return body;
  };

  // Idempotency-Key (UCP: required on mutations; accepted when absent, see README): the first
  // answer to a key is stored; the same operation + body gets it again, anything else 409.
  const idempotent = (request: FastifyRequest, reply: FastifyReply, run: () => StoredAnswer) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return send(reply, answer(run));
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
      return send(reply, errorAnswer(invalidRequest(`Idempotency-Key must be one header of 1–${MAX_KEY_LENGTH} characters`)));
    }
    const print = fingerprint(`${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)}`, canonicalJson(request.body ?? null));
    const seen = deps.idempotency.lookup(key, print);
    if (seen.kind === 'replay') return send(reply, seen.answer);
    if (seen.kind === 'conflict') {
      return send(reply, errorAnswer(new CheckoutError(409, 'idempotency_conflict', 'This Idempotency-Key was used with another request.')));
    }
    const result = answer(run);
    if (result.statusCode < 500) deps.idempotency.remember(key, print, result);
    return send(reply, result);
  };

  app.post('/checkout-sessions', (request, reply) =>
    idempotent(request, reply, () => ({ statusCode: 201, body: render(service.create(cartInput(validated('create_request', request.body)))) })),
  );
  app.get<IdParams>('/checkout-sessions/:id', (request, reply) => send(reply, answer(() => ({ statusCode: 200, body: render(service.get(request.params.id)) }))));
  app.put<IdParams>('/checkout-sessions/:id', (request, reply) =>
    idempotent(request, reply, () => ({ statusCode: 200, body: render(service.update(request.params.id, cartInput(validated('update_request', request.body)))) })),
  );
  app.post<IdParams>('/checkout-sessions/:id/complete', (request, reply) =>
    idempotent(request, reply, () => ({ statusCode: 200, body: render(service.complete(request.params.id, paymentInput(validated('complete_request', request.body)))) })),
  );
  app.post<IdParams>('/checkout-sessions/:id/cancel', (request, reply) =>
    idempotent(request, reply, () => ({ statusCode: 200, body: render(service.cancel(request.params.id)) })),
  );

  // Business UI (continue_url): a page saying what is pending, and the buyer's approval.
  app.get<IdParams>('/checkout/:id', (request, reply) => {
    const view = service.get(request.params.id);
    const action = `${continueUrl(deps.baseUrl(), view.session.id)}/approve`;
    return reply
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><title>Sandbox merchant</title><p>Checkout ${escapeHtml(view.session.id)}: ${view.status}, total ${view.pricing.total} ${view.session.currency} (minor units).</p>` +
        `<form method="post" action="${escapeHtml(action)}"><button>Approve this order</button></form>`);
  });
  app.post<IdParams>('/checkout/:id/approve', (request, reply) => send(reply, answer(() => ({ statusCode: 200, body: render(service.approve(request.params.id)) }))));
}

/** Runs a use case; a CheckoutError becomes a UCP error_response, anything else propagates (500). */
export function answer(run: () => StoredAnswer): StoredAnswer {
  try {
    return run();
  } catch (err) {
    if (err instanceof CheckoutError) return errorAnswer(err);
    throw err;
  }
}

export function errorAnswer(err: CheckoutError): StoredAnswer {
  return { statusCode: err.httpStatus, body: renderError([{ type: 'error', code: err.code, content: err.message, severity: err.severity }]) };
}

function send(reply: FastifyReply, result: StoredAnswer) {
  return reply.code(result.statusCode).type('application/json').send(result.body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
