import { errors } from '@exchange/platform';
import { withTransaction } from '@exchange/db';
import { appendEvidence } from '../evidence/evidence.repo';
import { approvalMessage, approvalPayload, isSignatureShaped, type ApprovalDecision } from './approval';
import { checkIdempotencyKey } from './checkout-input';
import { merchantStateOf } from './checkout-totals';
import { emitCheckoutEvent } from './checkout.events';
import {
  actorName,
  callMerchant,
  idempotencyOf,
  loadMandate,
  loadSession,
  merchantIdempotencyKey,
  priorResponse,
  recordAndThrow,
  rememberResponse,
  twinResponse,
  type CheckoutDeps,
} from './checkout-support.service';
import { assertBuyer, assertModifiable, assertReader, merchantKey } from './session-rules';
import { isTerminal, type Actor, type CheckoutSessionRecord } from './session.model';
import { updateSession } from './sessions.repo';
import type { SessionAnswer } from './checkout-create.service';

/** GetCheckout (with an optional merchant refresh), CancelCheckout and SubmitApproval. */
export class CheckoutSessionService {
  constructor(private readonly deps: CheckoutDeps) {}

  async get(actor: Actor, sessionId: string, refresh: boolean): Promise<CheckoutSessionRecord> {
    const s = await loadSession(this.deps.pool, sessionId);
    assertReader(s, actor);
    if (!refresh) return s;
    const result = await callMerchant(this.deps, s.merchantDomain, 'get_checkout', { checkoutId: s.merchantCheckoutId });
    if (!result.ok) return recordAndThrow(this.deps, sessionId, result.evidence, result.error);
    const state = merchantStateOf(result.checkout);
    const now = this.deps.clock();
    const session = await withTransaction(this.deps.pool, async (client) => {
      const locked = await loadSession(client, sessionId, true);
      await appendEvidence(client, sessionId, result.evidence, now);
      // While a complete moves money, or once terminal, the saga owns the state: only evidence.
      if (isTerminal(locked.status) || (locked.paymentStage !== 'none' && locked.paymentStage !== 'released')) return loadSession(client, sessionId);
      const changed = locked.status !== state.status || locked.total !== state.total;
      // An approval stands only for the total it was given for.
      const reapprove = locked.approval === 'approved' && locked.approvedTotal !== state.total;
      await updateSession(client, sessionId, {
        status: state.status, currency: state.currency, total: state.total, listTotal: state.listTotal, merchantCheckout: state.merchantCheckout, continueUrl: state.continueUrl,
        ...(reapprove ? { approval: 'pending' as const } : {}),
      }, now);
      const stored = await loadSession(client, sessionId);
      if (changed) await emitCheckoutEvent(client, 'updated', stored, actorName(actor));
      if (reapprove) await emitCheckoutEvent(client, 'approval_requested', stored, actorName(actor));
      return stored;
    });
    this.deps.notify();
    return session;
  }

  async cancel(actor: Actor, sessionId: string, idempotencyKey: string): Promise<SessionAnswer> {
    const idem = idempotencyOf(actor.agentId, 'cancel_checkout', checkIdempotencyKey(idempotencyKey), { commerce_session_id: sessionId });
    const prior = await priorResponse(this.deps.pool, idem);
    if (prior) return { session: await loadSession(this.deps.pool, sessionId), replayed: true };
    const s = await loadSession(this.deps.pool, sessionId);
    assertBuyer(s, actor);
    assertModifiable(s, 'canceled');
    const key = merchantIdempotencyKey((k) => merchantKey(sessionId, 'cancel_checkout', k), idem);
    const result = await callMerchant(this.deps, s.merchantDomain, 'cancel_checkout', { checkoutId: s.merchantCheckoutId, body: {}, idempotencyKey: key });
    if (!result.ok) return recordAndThrow(this.deps, sessionId, result.evidence, result.error);
    const state = merchantStateOf(result.checkout);
    const now = this.deps.clock();
    try {
      const session = await withTransaction(this.deps.pool, async (client) => {
        await loadSession(client, sessionId, true);
        await appendEvidence(client, sessionId, result.evidence, now);
        await updateSession(client, sessionId, { status: state.status, merchantCheckout: state.merchantCheckout, continueUrl: state.continueUrl }, now);
        await rememberResponse(client, idem, { commerce_session_id: sessionId }, now);
        const stored = await loadSession(client, sessionId);
        await emitCheckoutEvent(client, state.status === 'canceled' ? 'canceled' : 'updated', stored, actorName(actor));
        return stored;
      });
      this.deps.notify();
      return { session, replayed: false };
    } catch (err) {
      if (await twinResponse(this.deps.pool, idem, err)) return { session: await loadSession(this.deps.pool, sessionId), replayed: true };
      throw err;
    }
  }

  /**
   * The mandate signer's decision on a pending approval, signed over the session's current total
   * (approval.ts). Kept as an 'approval' evidence item with the signed payload.
   */
  async submitApproval(input: { actor: Actor; sessionId: string; decision: ApprovalDecision | undefined; approverId: string; signature: string }): Promise<CheckoutSessionRecord> {
    const { actor, approverId } = input;
    if (actor.operator || actor.agentId !== approverId) throw errors.permissionDenied('acting_agent_mismatch', 'approver_id must be the acting agent');
    if (input.decision === undefined) throw errors.invalidArgument('validation_failed', 'decision must be approve or deny', { field: 'decision' });
    const decision = input.decision;
    const s = await loadSession(this.deps.pool, input.sessionId);
    const mandate = await loadMandate(this.deps.pool, s.mandateId);
    if (mandate.signerAgentId !== approverId) throw errors.permissionDenied('not_mandate_signer', "only the mandate's signer may decide on this checkout");
    if (s.approval !== 'pending') throw errors.failedPrecondition('approval_not_pending', `the checkout's approval is ${s.approval}`, { approval: s.approval });
    const payload = approvalPayload(s, decision, approverId);
    const valid = isSignatureShaped(input.signature) && (await this.deps.agents.verifySignature(approverId, approvalMessage(payload), input.signature)) !== null;
    if (!valid) throw errors.invalidArgument('approval_signature_invalid', 'the approval signature does not verify with a key of approver_id', { signed: payload });
    const now = this.deps.clock();
    const session = await withTransaction(this.deps.pool, async (client) => {
      const locked = await loadSession(client, input.sessionId, true);
      // Changed while we verified: the signature was over another state.
      if (locked.approval !== 'pending') throw errors.failedPrecondition('approval_not_pending', `the checkout's approval is ${locked.approval}`, { approval: locked.approval });
      if (locked.total !== s.total || locked.currency !== s.currency) throw errors.invalidArgument('approval_signature_invalid', 'the checkout total changed: sign the current total', { signed: payload });
      await updateSession(client, input.sessionId, {
        approval: decision === 'approve' ? 'approved' : 'denied',
        approvedTotal: decision === 'approve' ? locked.total : null,
        approverId,
        approvalSignature: input.signature,
      }, now);
      await appendEvidence(client, input.sessionId, [{ kind: 'approval', operation: 'approval', content: { payload, signature: input.signature, decision }, schemaResult: 'not_applicable' }], now);
      const stored = await loadSession(client, input.sessionId);
      await emitCheckoutEvent(client, 'approval_decided', stored, actorName(actor));
      return stored;
    });
    this.deps.notify();
    return session;
  }
}
