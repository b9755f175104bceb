import { commerceV1 } from '@exchange/proto';
import { grpcError } from './support/mandates-harness';
import { agentActor, roses, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

const { CheckoutStatus, ApprovalState, ApprovalDecision, AutonomyMode } = commerceV1;

describe('commerce checkout changes: update, discounts, cancel, approval, complete pre-checks', () => {
  let h: CheckoutHarness;
  let signer: TestAgent;
  let buyer: TestAgent;
  let mandateId: string;
  let stepUpMandate: string;

  beforeAll(async () => {
    h = await startCheckoutHarness();
    signer = h.newAgent('signer');
    buyer = h.newAgent('buyer');
    mandateId = await h.mandate(signer, buyer);
    stepUpMandate = await h.mandate(signer, buyer, {
      autonomy: { mode: AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '50', currency: 'USD' }, approvalForNewMerchants: false },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const newSession = async (mandate = mandateId, over: Partial<commerceV1.CreateCheckoutRequest> = {}) => (await h.create(buyer, mandate, over)).session!;
  const actor = () => agentActor(buyer);

  describe('update', () => {
    it('should send the full resource, keep absent fields and store the new totals with an updated event', async () => {
      const s = await newSession();
      const { session } = await h.client.updateCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, lineItemsJson: roses(3), idempotencyKey: '' });
      // The buyer email was kept (absent field): still ready.
      expect(session).toMatchObject({ status: CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE, total: '105', listTotal: '105' });
      const types = (await h.outbox(s.commerceSessionId)).map((e) => e.type);
      expect(types).toEqual(['exchange.commerce.checkout.created', 'exchange.commerce.checkout.updated']);
      const ops = (await h.evidence(s.commerceSessionId)).map((i) => i.operation);
      expect(ops.filter((o) => o === 'update_checkout')).toHaveLength(2);
      const request = (await h.evidence(s.commerceSessionId)).find((i) => i.kind === 'merchant_request' && i.operation === 'update_checkout')!;
      expect(request.content.body).toMatchObject({ id: s.merchantCheckoutId, buyer: { email: 'buyer@example.com' }, discounts: { codes: [] } });
    });

    it('should replay an update with the same key and refuse another payload', async () => {
      const s = await newSession();
      const req = { actor: actor(), commerceSessionId: s.commerceSessionId, lineItemsJson: roses(4), idempotencyKey: 'upd-1' };
      expect((await h.client.updateCheckout(req)).idempotentReplayed).toBe(false);
      const again = await h.client.updateCheckout(req);
      expect(again.idempotentReplayed).toBe(true);
      expect(again.session!.total).toBe('140');
      expect((await grpcError(h.client.updateCheckout({ ...req, lineItemsJson: roses(5) }))).code).toBe('idempotency_key_reused');
    });

    it('should let only the buyer update', async () => {
      const s = await newSession();
      const err = await grpcError(h.client.updateCheckout({ actor: agentActor(signer), commerceSessionId: s.commerceSessionId, lineItemsJson: roses(1), idempotencyKey: '' }));
      expect(err.code).toBe('not_session_buyer');
    });
  });

  describe('discounts', () => {
    it('should apply a valid code: total, list total and savings', async () => {
      const s = await newSession();
      const out = await h.client.applyDiscount({ actor: actor(), commerceSessionId: s.commerceSessionId, codes: ['10off'], idempotencyKey: '' });
      expect(out.applied).toEqual(['10off']);
      expect(out.rejected).toEqual([]);
      expect(out.session).toMatchObject({ total: '63', listTotal: '70', savings: '7', discountCodes: ['10off'] });
    });

    it('should report an expired and an unknown code as rejected with the UCP reason', async () => {
      const s = await newSession();
      const out = await h.client.applyDiscount({ actor: actor(), commerceSessionId: s.commerceSessionId, codes: ['SPRING2020', 'NOPE'], idempotencyKey: 'disc-1' });
      expect(out.applied).toEqual([]);
      expect(out.rejected).toEqual([{ code: 'SPRING2020', reason: 'discount_code_expired' }, { code: 'NOPE', reason: 'discount_code_invalid' }]);
      expect(out.session).toMatchObject({ total: '70', savings: '0' });
      const again = await h.client.applyDiscount({ actor: actor(), commerceSessionId: s.commerceSessionId, codes: ['SPRING2020', 'NOPE'], idempotencyKey: 'disc-1' });
      expect(again.idempotentReplayed).toBe(true);
      expect(again.rejected).toEqual(out.rejected);
    });
  });

  describe('cancel', () => {
    it('should cancel at the merchant, then refuse every change of the canceled session', async () => {
      const s = await newSession();
      const { session } = await h.client.cancelCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, idempotencyKey: '' });
      expect(session!.status).toBe(CheckoutStatus.CHECKOUT_STATUS_CANCELED);
      expect((await h.outbox(s.commerceSessionId)).map((e) => e.type)).toContain('exchange.commerce.checkout.canceled');
      expect((await h.evidence(s.commerceSessionId)).slice(-1)[0].operation).toBe('cancel_checkout');
      const id = s.commerceSessionId;
      expect((await grpcError(h.client.cancelCheckout({ actor: actor(), commerceSessionId: id, idempotencyKey: '' }))).code).toBe('invalid_state');
      expect((await grpcError(h.client.updateCheckout({ actor: actor(), commerceSessionId: id, lineItemsJson: roses(1), idempotencyKey: '' }))).code).toBe('invalid_state');
      expect((await grpcError(h.client.completeCheckout({ actor: actor(), commerceSessionId: id, idempotencyKey: '' }))).code).toBe('invalid_state');
    });

    it('should let only the buyer cancel', async () => {
      const s = await newSession();
      expect((await grpcError(h.client.cancelCheckout({ actor: agentActor(signer), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }))).code).toBe('not_session_buyer');
    });
  });

  describe('approval', () => {
    const decide = (s: commerceV1.CheckoutSession, decision: 'approve' | 'deny', by = signer, over: Partial<commerceV1.SubmitApprovalRequest> = {}) =>
      h.client.submitApproval({
        actor: agentActor(by),
        commerceSessionId: s.commerceSessionId,
        decision: decision === 'approve' ? ApprovalDecision.APPROVAL_DECISION_APPROVE : ApprovalDecision.APPROVAL_DECISION_DENY,
        approverId: by.agentId,
        signature: h.signApproval(by, s, decision),
        ...over,
      });

    it('should hold a cart above the step-up threshold for approval and refuse to complete it', async () => {
      const s = await newSession(stepUpMandate);
      expect(s).toMatchObject({ approval: ApprovalState.APPROVAL_STATE_PENDING, approvalReason: 'step_up_threshold' });
      expect((await h.outbox(s.commerceSessionId)).map((e) => e.type)).toEqual(['exchange.commerce.checkout.created', 'exchange.commerce.checkout.approval_requested']);
      const err = await grpcError(h.client.completeCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }));
      expect(err.code).toBe('approval_required');
      expect(err.details).toEqual({ reason: 'step_up_threshold' });
    });

    it('should refuse a decision by anyone but the signer, or with a bad signature', async () => {
      const s = await newSession(stepUpMandate);
      expect((await grpcError(decide(s, 'approve', buyer))).code).toBe('not_mandate_signer');
      expect((await grpcError(decide(s, 'approve', signer, { actor: agentActor(buyer) }))).code).toBe('acting_agent_mismatch');
      expect((await grpcError(decide(s, 'approve', signer, { signature: h.signApproval(signer, s, 'deny') }))).code).toBe('approval_signature_invalid');
      expect((await grpcError(decide(s, 'approve', signer, { signature: 'not base64!' }))).code).toBe('approval_signature_invalid');
      const still = (await h.client.getCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, refresh: false })).session!;
      expect(still.approval).toBe(ApprovalState.APPROVAL_STATE_PENDING);
    });

    it('should record an approval and ask again when the total changes', async () => {
      const s = await newSession(stepUpMandate);
      const { session } = await decide(s, 'approve');
      expect(session!.approval).toBe(ApprovalState.APPROVAL_STATE_APPROVED);
      const approval = (await h.evidence(s.commerceSessionId)).find((i) => i.kind === 'approval')!;
      expect(approval.content).toMatchObject({ decision: 'approve', payload: { commerce_session_id: s.commerceSessionId, total: '70', currency: 'USD', approver_id: signer.agentId } });
      expect((await grpcError(decide(session!, 'approve'))).code).toBe('approval_not_pending');
      const updated = await h.client.updateCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, lineItemsJson: roses(3), idempotencyKey: '' });
      expect(updated.session).toMatchObject({ total: '105', approval: ApprovalState.APPROVAL_STATE_PENDING });
    });

    it('should make a denied checkout impossible to complete', async () => {
      const s = await newSession(stepUpMandate);
      expect((await decide(s, 'deny')).session!.approval).toBe(ApprovalState.APPROVAL_STATE_DENIED);
      expect((await h.outbox(s.commerceSessionId)).map((e) => e.type)).toContain('exchange.commerce.checkout.approval_decided');
      expect((await grpcError(h.client.completeCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }))).code).toBe('approval_denied');
    });
  });

  describe('complete pre-checks', () => {
    it('should never complete a shadow session', async () => {
      const s = await newSession(mandateId, { mode: commerceV1.SessionMode.SESSION_MODE_SHADOW });
      expect(s.mode).toBe(commerceV1.SessionMode.SESSION_MODE_SHADOW);
      expect((await grpcError(h.client.completeCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }))).code).toBe('invalid_state');
    });

    it('should refuse a checkout the merchant has not made ready, with its messages', async () => {
      const s = await newSession(mandateId, { buyerJson: undefined });
      const err = await grpcError(h.client.completeCheckout({ actor: actor(), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }));
      expect(err.code).toBe('checkout_not_ready');
      expect((err.details as { status: string }).status).toBe('incomplete');
    });

    it("should refuse another agent's complete", async () => {
      const s = await newSession();
      expect((await grpcError(h.client.completeCheckout({ actor: agentActor(signer), commerceSessionId: s.commerceSessionId, idempotencyKey: '' }))).code).toBe('not_session_buyer');
    });
  });
});
