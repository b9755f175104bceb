import { errors, newId } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import { GENESIS_HASH } from '../evidence/evidence-chain';
import { appendEvidence } from '../evidence/evidence.repo';
import { checkBeforeMerchant } from '../mandates/mandate-rules';
import { bindIntent, intentAllowsRequest, intentAllowsSession, intentEvidence } from './intent-check.service';
import { approvalNewlyRequested, deriveApproval } from './approval';
import { checkDiscountCodes, checkIdempotencyKey, checkMode, parseLineItems, parseOptionalObject, requireId } from './checkout-input';
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
  rememberResponse,
  replayedSession,
  twinResponse,
  type CheckoutDeps,
} from './checkout-support.service';
import { originFingerprint, parseOrigin, verifyOrigin, type OriginInput } from './origin';
import { merchantKey } from './session-rules';
import type { Actor, CheckoutSessionRecord, SessionMode } from './session.model';
import { insertSession } from './sessions.repo';
import type { CommerceRuntime } from '../service/runtime';

export interface CreateCheckoutInput {
  actor: Actor;
  buyerAgentId: string;
  mandateId: string;
  merchantDomain: string;
  lineItemsJson: string;
  buyerJson?: string;
  contextJson?: string;
  discountCodes: string[];
  mode?: SessionMode;
  idempotencyKey: string;
  intentId?: string;
  origin?: OriginInput;
}

export interface SessionAnswer {
  session: CheckoutSessionRecord;
  replayed: boolean;
}

/**
 * CreateCheckout: the buyer opens a checkout at a merchant under one of its mandates. The merchant
 * is asked first (its answer has the currency, lines and total the mandate rules need); a refusal
 * by the mandate or the named intent cancels the merchant's session again and stores nothing; what
 * either refuses on the request alone is refused before the merchant is called. On success the session,
 * the exchanged messages (evidence) and the event commit together.
 */
export class CheckoutCreateService {
  constructor(private readonly deps: CheckoutDeps & Pick<CommerceRuntime, 'origins'>) {}

  async create(input: CreateCheckoutInput): Promise<SessionAnswer> {
    const { actor } = input;
    if (actor.operator || actor.agentId !== input.buyerAgentId) {
      throw errors.permissionDenied('acting_agent_mismatch', 'buyer_agent_id must be the acting agent');
    }
    const buyerAgentId = requireId('buyer_agent_id', input.buyerAgentId);
    const mandateId = requireId('mandate_id', input.mandateId);
    const merchantDomain = input.merchantDomain;
    const lineItems = parseLineItems(input.lineItemsJson);
    const buyer = parseOptionalObject('buyer', input.buyerJson);
    const context = parseOptionalObject('context', input.contextJson);
    const discountCodes = checkDiscountCodes(input.discountCodes);
    const mode = checkMode(input.mode);
    const origin = parseOrigin(input.origin);
    const idem = idempotencyOf(buyerAgentId, 'create_checkout', checkIdempotencyKey(input.idempotencyKey), {
      mandate_id: mandateId, merchant_domain: merchantDomain, line_items: lineItems, buyer, context, discount_codes: discountCodes, mode, intent_id: input.intentId ?? null,
      ...originFingerprint(origin),
    });
    const prior = await priorResponse(this.deps.pool, idem);
    if (prior) return this.replay(prior);

    await this.deps.agents.active(buyerAgentId);
    // Checked before the merchant is asked: a refused origin opens nothing there.
    if (origin) await verifyOrigin(this.deps.origins, origin, buyerAgentId);
    const mandate = await loadMandate(this.deps.pool, mandateId);
    const intent = await bindIntent(this.deps, input.intentId, merchantDomain);
    // What the mandate, then the named intent, refuses whatever the merchant answers is refused
    // before anything is opened there.
    checkBeforeMerchant(mandate, { buyerAgentId, merchantDomain, now: this.deps.clock() });
    intentAllowsRequest(intent, { buyerAgentId, merchantDomain }, lineItems, this.deps.clock());

    const body: Record<string, unknown> = { line_items: lineItems };
    if (buyer) body['buyer'] = buyer;
    if (context) body['context'] = context;
    if (discountCodes.length > 0) body['discounts'] = { codes: discountCodes };
    const merchantKeyValue = merchantIdempotencyKey((k) => merchantKey(buyerAgentId, 'create_checkout', k), idem);
    const result = await callMerchant(this.deps, merchantDomain, 'create_checkout', { body, idempotencyKey: merchantKeyValue });
    // No session row exists yet to hang a failed exchange on: nothing is stored.
    if (!result.ok) throw result.error;
    const state = merchantStateOf(result.checkout);

    const now = this.deps.clock();
    const owner = { buyerAgentId, merchantDomain };
    let need;
    try {
      need = await mandateVerdict(this.deps.pool, mandate, owner, result.checkout, state.total, now);
      // The merchant's lines, currency and total against the intent too (its budget bounds this one session).
      intentAllowsSession(intent, owner, result.checkout, state.total, now);
    } catch (err) {
      await this.cancelAtMerchant(merchantDomain, state.merchantCheckoutId, merchantKeyValue);
      throw err;
    }
    const approval = deriveApproval(null, need, state.total);
    const sessionId = newId('cs');
    try {
      const session = await withTransaction(this.deps.pool, async (client) => {
        await insertSession(client, {
          commerceSessionId: sessionId, buyerAgentId, mandateId, merchantDomain, mode, status: state.status,
          approval: approval.approval, approvalReason: approval.approvalReason, approvedTotal: null, approverId: null, approvalSignature: null,
          merchantCheckoutId: state.merchantCheckoutId, currency: state.currency, total: state.total, listTotal: state.listTotal,
          discountCodes, lineItems, buyer, context, merchantCheckout: state.merchantCheckout, paymentStage: 'none', reservedAmount: null,
          holdId: null, dealId: null, receiptId: null, orderId: null, continueUrl: state.continueUrl, failureReason: null,
          intentId: intent?.intent.intentId ?? null, origin, evidenceHead: GENESIS_HASH, createdAt: now, updatedAt: now,
        });
        const bound = intent === null ? [] : [intentEvidence(intent)];
        await appendEvidence(client, sessionId, [...bound, ...result.evidence, mandateEvidence(mandate, state.total, state.currency, need)], now);
        await rememberResponse(client, idem, { commerce_session_id: sessionId }, now);
        const stored = await loadSession(client, sessionId);
        await emitCheckoutEvent(client, 'created', stored, actorName(actor));
        if (approvalNewlyRequested(null, stored.approval)) await emitCheckoutEvent(client, 'approval_requested', stored, actorName(actor));
        return stored;
      });
      this.deps.notify();
      return { session, replayed: false };
    } catch (err) {
      // A twin with the same key committed first (it got the same merchant session: same merchant key).
      const twin = await twinResponse(this.deps.pool, idem, err);
      if (twin) return this.replay(twin);
      throw err;
    }
  }

  private replay(response: Record<string, unknown>): Promise<SessionAnswer> {
    return replayedSession(this.deps.pool, response);
  }

  /** Best effort: a session the mandate refuses must not stay open at the merchant. */
  private async cancelAtMerchant(domain: string, checkoutId: string, createKey: string): Promise<void> {
    try {
      const call = await this.deps.merchants.call(domain, 'cancel_checkout', { checkoutId, body: {}, idempotencyKey: merchantKey(createKey, 'cancel') });
      if (call.outcome.kind !== 'checkout') this.deps.logger.warn({ merchant: domain, outcome: call.outcome.kind }, 'cancel of a refused checkout failed');
    } catch (err) {
      this.deps.logger.warn({ merchant: domain, err: (err as Error).message }, 'cancel of a refused checkout failed');
    }
  }
}
