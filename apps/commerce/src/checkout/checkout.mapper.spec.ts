import { commerceV1 } from '@exchange/proto';
import { actorOf, decisionOf, modeOf, toProtoPurchase, toProtoSession } from './checkout.mapper';
import type { CheckoutSessionRecord } from './session.model';

const at = new Date('2026-11-25T10:00:00.000Z');
const session: CheckoutSessionRecord = {
  commerceSessionId: 'cs_1', buyerAgentId: 'agent:b', mandateId: 'mdt_1', merchantDomain: 'sandbox-merchant.local', mode: 'shadow',
  status: 'requires_escalation', approval: 'pending', approvalReason: 'step_up_threshold', approvedTotal: null, approverId: null, approvalSignature: null,
  merchantCheckoutId: 'chk_1', currency: 'USD', total: 58_500_000n, listTotal: 65_000_000n, discountCodes: ['10OFF'], lineItems: [], buyer: null, context: null,
  merchantCheckout: { id: 'chk_1', status: 'requires_escalation', currency: 'USD', totals: [], line_items: [] }, paymentStage: 'none', reservedAmount: null,
  holdId: null, dealId: null, receiptId: null, orderId: null, continueUrl: 'https://m/checkout/chk_1', failureReason: null, intentId: null, origin: null,
  evidenceHead: 'ab'.repeat(32), evidenceSeq: 3, paymentUpdatedAt: null, createdAt: at, updatedAt: at,
};

describe('checkout mapper', () => {
  it('should render a session with decimal amounts, savings and proto enums', () => {
    const p = toProtoSession(session);
    expect(p).toMatchObject({
      commerceSessionId: 'cs_1', mode: commerceV1.SessionMode.SESSION_MODE_SHADOW, status: commerceV1.CheckoutStatus.CHECKOUT_STATUS_REQUIRES_ESCALATION,
      approval: commerceV1.ApprovalState.APPROVAL_STATE_PENDING, approvalReason: 'step_up_threshold', total: '58.5', listTotal: '65', savings: '6.5',
      paymentStage: commerceV1.PaymentStage.PAYMENT_STAGE_NONE, continueUrl: 'https://m/checkout/chk_1', evidenceHead: 'ab'.repeat(32), discountCodes: ['10OFF'],
    });
    expect(JSON.parse(p.merchantCheckoutJson)).toEqual(session.merchantCheckout);
    expect(p.holdId).toBeUndefined();
    expect(p.origin).toBeUndefined();
  });

  it('should render an origin as the one id it names', () => {
    expect(toProtoSession({ ...session, origin: { kind: 'contract', contractId: 'ctr_1' } }).origin).toEqual({ contractId: 'ctr_1' });
    expect(toProtoSession({ ...session, origin: { kind: 'workflow_run', workflowRunId: 'run_1' } }).origin).toEqual({ workflowRunId: 'run_1' });
  });

  it('should map request enums and the actor, UNSPECIFIED to undefined', () => {
    expect(modeOf(commerceV1.SessionMode.SESSION_MODE_UNSPECIFIED)).toBeUndefined();
    expect(modeOf(commerceV1.SessionMode.SESSION_MODE_LIVE)).toBe('live');
    expect(decisionOf(commerceV1.ApprovalDecision.APPROVAL_DECISION_DENY)).toBe('deny');
    expect(decisionOf(commerceV1.ApprovalDecision.APPROVAL_DECISION_UNSPECIFIED)).toBeUndefined();
    expect(actorOf(undefined)).toEqual({ agentId: '', operator: false });
  });

  it('should render a purchase with its receipt as JSON text', () => {
    const p = toProtoPurchase({ dealId: 'deal_1', commerceSessionId: 'cs_1', buyerAgentId: 'agent:b', merchantDomain: 'm', amount: 25_000_000n, currency: 'USD', receiptId: 'rcp_1', receipt: { a: 1 }, orderId: null, completedAt: at, origin: { kind: 'contract', contractId: 'ctr_1' } });
    expect(p).toMatchObject({ amount: '25', receiptJson: '{"a":1}', orderId: undefined, origin: { contractId: 'ctr_1' } });
  });
});
