import { unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';
import { CheckoutCompleteService } from './checkout-complete.service';
import { CheckoutCreateService } from './checkout-create.service';
import { actorOf, decisionOf, modeOf, toProtoPurchase, toProtoSession } from './checkout.mapper';
import { CheckoutSessionService } from './checkout-session.service';
import { CheckoutUpdateService } from './checkout-update.service';

type CheckoutRpcs = 'createCheckout' | 'getCheckout' | 'updateCheckout' | 'completeCheckout' | 'cancelCheckout' | 'submitApproval' | 'applyDiscount';

/** The checkout RPCs: proto in, proto out; the rules live in the checkout services. */
export function checkoutHandlers(r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, CheckoutRpcs> {
  const deps = { pool: r.pool, agents: r.agents, merchants: r.merchants, clock: r.clock, logger: r.logger, notify: r.notify, exchangeEnv: r.exchangeEnv };
  const create = new CheckoutCreateService({ ...deps, origins: r.origins });
  const update = new CheckoutUpdateService(deps);
  const sessions = new CheckoutSessionService(deps);
  const complete = new CheckoutCompleteService({ ...deps, wallet: r.wallet, faults: r.faults });
  return {
    createCheckout: unary(logger, 'createCheckout', async (req: commerceV1.CreateCheckoutRequest) => {
      const out = await create.create({
        actor: actorOf(req.actor), buyerAgentId: req.buyerAgentId, mandateId: req.mandateId, merchantDomain: req.merchantDomain,
        lineItemsJson: req.lineItemsJson, buyerJson: req.buyerJson, contextJson: req.contextJson, discountCodes: req.discountCodes,
        mode: modeOf(req.mode), idempotencyKey: req.idempotencyKey, intentId: req.intentId, origin: req.origin,
      });
      return { session: toProtoSession(out.session), idempotentReplayed: out.replayed };
    }),
    getCheckout: unary(logger, 'getCheckout', async (req: commerceV1.GetCheckoutRequest) => ({
      session: toProtoSession(await sessions.get(actorOf(req.actor), req.commerceSessionId, req.refresh)),
    })),
    updateCheckout: unary(logger, 'updateCheckout', async (req: commerceV1.UpdateCheckoutRequest) => {
      const out = await update.update({
        actor: actorOf(req.actor), sessionId: req.commerceSessionId, lineItemsJson: req.lineItemsJson, buyerJson: req.buyerJson,
        contextJson: req.contextJson, discountCodes: req.discountCodes?.codes, idempotencyKey: req.idempotencyKey,
      });
      return { session: toProtoSession(out.session), idempotentReplayed: out.replayed };
    }),
    completeCheckout: unary(logger, 'completeCheckout', async (req: commerceV1.CompleteCheckoutRequest) => {
      const out = await complete.complete({ actor: actorOf(req.actor), sessionId: req.commerceSessionId, paymentJson: req.paymentJson });
      return { session: toProtoSession(out.session), idempotentReplayed: out.replayed, purchase: out.purchase ? toProtoPurchase(out.purchase) : undefined };
    }),
    cancelCheckout: unary(logger, 'cancelCheckout', async (req: commerceV1.CancelCheckoutRequest) => {
      const out = await sessions.cancel(actorOf(req.actor), req.commerceSessionId, req.idempotencyKey);
      return { session: toProtoSession(out.session), idempotentReplayed: out.replayed };
    }),
    submitApproval: unary(logger, 'submitApproval', async (req: commerceV1.SubmitApprovalRequest) => ({
      session: toProtoSession(
        await sessions.submitApproval({ actor: actorOf(req.actor), sessionId: req.commerceSessionId, decision: decisionOf(req.decision), approverId: req.approverId, signature: req.signature }),
      ),
    })),
    applyDiscount: unary(logger, 'applyDiscount', async (req: commerceV1.ApplyDiscountRequest) => {
      const out = await update.applyDiscount({ actor: actorOf(req.actor), sessionId: req.commerceSessionId, codes: req.codes, idempotencyKey: req.idempotencyKey });
      return { session: toProtoSession(out.session), applied: out.outcome.applied, rejected: out.outcome.rejected, idempotentReplayed: out.replayed };
    }),
  };
}
