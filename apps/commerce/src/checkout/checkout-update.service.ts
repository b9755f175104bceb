import { withTransaction } from '@exchange/db';
import { appendEvidence } from '../evidence/evidence.repo';
import { approvalNewlyRequested, deriveApproval } from './approval';
import { checkDiscountCodes, checkIdempotencyKey, parseLineItems, parseOptionalObject } from './checkout-input';
import { merchantStateOf } from './checkout-totals';
import { emitCheckoutEvent } from './checkout.events';
import {
  actorName,
  callMerchant,
  idempotencyOf,
  loadMandate,
  loadSession,
  mandateEvidence,
  mandateVerdict,
  merchantIdempotencyKey,
  priorResponse,
  recordAndThrow,
  rememberResponse,
  replayedSession,
  twinResponse,
  type CheckoutDeps,
  type Idempotency,
} from './checkout-support.service';
import { discountOutcome, type DiscountOutcome } from './discount-outcome';
import { assertBuyer, assertModifiable, merchantKey } from './session-rules';
import type { Actor, BuyerRequest, CheckoutSessionRecord } from './session.model';
import { updateSession } from './sessions.repo';
import { bindIntent, intentAllowsRequest, intentAllowsSession } from './intent-check.service';
import type { SessionAnswer } from './checkout-create.service';

export interface UpdateCheckoutInput {
  actor: Actor;
  sessionId: string;
  /** Absent: keep the stored value. */
  lineItemsJson?: string;
  buyerJson?: string;
  contextJson?: string;
  /** Present (possibly empty): replaces the codes. */
  discountCodes?: string[];
  idempotencyKey: string;
}

export interface DiscountAnswer extends SessionAnswer {
  outcome: DiscountOutcome;
}

/**
 * UpdateCheckout and ApplyDiscount: a UCP PUT (full replacement) of the buyer's cart. Absent fields
 * keep the stored request; the merchant gets the whole resource. The mandate is asked again about
 * the new cart and the approval re-derived (an approval given for another total is pending again).
 * When the mandate refuses the new cart the merchant already holds it: the session still mirrors
 * the merchant (evidence, new state) and the answer is the 403 — a complete is refused by the same
 * rule until the cart is back within the mandate. The session's intent is held the same way (a
 * cart its skus already exclude is refused before the merchant is called).
 */
export class CheckoutUpdateService {
  constructor(private readonly deps: CheckoutDeps) {}

  async update(input: UpdateCheckoutInput): Promise<SessionAnswer> {
    const change: Partial<BuyerRequest> = {};
    if (input.lineItemsJson !== undefined) change.lineItems = parseLineItems(input.lineItemsJson);
    if (input.buyerJson !== undefined) change.buyer = parseOptionalObject('buyer', input.buyerJson);
    if (input.contextJson !== undefined) change.context = parseOptionalObject('context', input.contextJson);
    if (input.discountCodes !== undefined) change.discountCodes = checkDiscountCodes(input.discountCodes);
    const idem = idempotencyOf(input.actor.agentId, 'update_checkout', checkIdempotencyKey(input.idempotencyKey), {
      commerce_session_id: input.sessionId, line_items: change.lineItems ?? null, buyer: change.buyer ?? null, context: change.context ?? null, discount_codes: change.discountCodes ?? null,
    });
    const prior = await priorResponse(this.deps.pool, idem);
    if (prior) return this.replay(prior);
    const { session } = await this.put(input.actor, input.sessionId, change, idem, 'update_checkout', () => ({}));
    return { session, replayed: false };
  }

  async applyDiscount(input: { actor: Actor; sessionId: string; codes: string[]; idempotencyKey: string }): Promise<DiscountAnswer> {
    const codes = checkDiscountCodes(input.codes);
    const idem = idempotencyOf(input.actor.agentId, 'apply_discount', checkIdempotencyKey(input.idempotencyKey), { commerce_session_id: input.sessionId, codes });
    const prior = await priorResponse(this.deps.pool, idem);
    if (prior) {
      const answer = await this.replay(prior);
      return { ...answer, outcome: (prior['outcome'] as DiscountOutcome | undefined) ?? { applied: [], rejected: [] } };
    }
    let outcome: DiscountOutcome = { applied: [], rejected: [] };
    const { session } = await this.put(input.actor, input.sessionId, { discountCodes: codes }, idem, 'apply_discount', (checkout) => {
      outcome = discountOutcome(codes, checkout);
      return { outcome };
    });
    return { session, replayed: false, outcome };
  }

  private async put(
    actor: Actor,
    sessionId: string,
    change: Partial<BuyerRequest>,
    idem: Idempotency | undefined,
    rpc: string,
    extra: (checkout: CheckoutSessionRecord['merchantCheckout']) => Record<string, unknown>,
  ): Promise<{ session: CheckoutSessionRecord }> {
    const current = await loadSession(this.deps.pool, sessionId);
    assertBuyer(current, actor);
    assertModifiable(current, 'updated');
    const request: BuyerRequest = {
      lineItems: change.lineItems ?? current.lineItems,
      buyer: change.buyer !== undefined ? change.buyer : current.buyer,
      context: change.context !== undefined ? change.context : current.context,
      discountCodes: change.discountCodes ?? current.discountCodes,
    };
    // The full resource (UCP PUT): what is left out is cleared at the merchant.
    const body: Record<string, unknown> = { id: current.merchantCheckoutId, line_items: request.lineItems, discounts: { codes: request.discountCodes } };
    if (request.buyer) body['buyer'] = request.buyer;
    if (request.context) body['context'] = request.context;
    // A cart the session's intent already refuses is not sent to the merchant (nothing changes).
    const intent = await bindIntent(this.deps, current.intentId, current.merchantDomain);
    intentAllowsRequest(intent, current, request.lineItems, this.deps.clock());
    const key = merchantIdempotencyKey((k) => merchantKey(sessionId, rpc, k), idem);
    const result = await callMerchant(this.deps, current.merchantDomain, 'update_checkout', { checkoutId: current.merchantCheckoutId, body, idempotencyKey: key });
    if (!result.ok) return recordAndThrow(this.deps, sessionId, result.evidence, result.error);
    const state = merchantStateOf(result.checkout);
    const now = this.deps.clock();
    const mandate = await loadMandate(this.deps.pool, current.mandateId);
    let need: Awaited<ReturnType<typeof mandateVerdict>> = null;
    let refusal: unknown = null;
    try {
      need = await mandateVerdict(this.deps.pool, mandate, current, result.checkout, state.total, now);
      intentAllowsSession(intent, current, result.checkout, state.total, now);
    } catch (err) {
      refusal = err;
    }
    try {
      const session = await withTransaction(this.deps.pool, async (client) => {
        const locked = await loadSession(client, sessionId, true);
        try {
          // A complete or cancel may have started since the read: keep the exchange, change nothing else.
          assertModifiable(locked, 'updated');
        } catch (err) {
          await appendEvidence(client, sessionId, result.evidence, now);
          refusal = err;
          return locked;
        }
        const approval = refusal ? { approval: locked.approval, approvalReason: locked.approvalReason } : deriveApproval(locked, need, state.total);
        await updateSession(client, sessionId, {
          status: state.status, currency: state.currency, total: state.total, listTotal: state.listTotal, merchantCheckout: state.merchantCheckout,
          continueUrl: state.continueUrl, lineItems: request.lineItems, buyer: request.buyer, context: request.context, discountCodes: request.discountCodes,
          ...approval,
        }, now);
        await appendEvidence(client, sessionId, [...result.evidence, ...(refusal ? [] : [mandateEvidence(mandate, state.total, state.currency, need)])], now);
        if (!refusal) await rememberResponse(client, idem, { commerce_session_id: sessionId, ...extra(result.checkout) }, now);
        const stored = await loadSession(client, sessionId);
        await emitCheckoutEvent(client, 'updated', stored, actorName(actor));
        if (approvalNewlyRequested(locked.approval, stored.approval)) await emitCheckoutEvent(client, 'approval_requested', stored, actorName(actor));
        return stored;
      });
      this.deps.notify();
      if (refusal) throw refusal;
      return { session };
    } catch (err) {
      const twin = await twinResponse(this.deps.pool, idem, err);
      if (twin) return this.replay(twin);
      throw err;
    }
  }

  private replay(response: Record<string, unknown>): Promise<SessionAnswer> {
    return replayedSession(this.deps.pool, response);
  }
}
