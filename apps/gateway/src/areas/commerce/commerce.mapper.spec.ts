import { commerceV1 } from '@exchange/proto';
import { CommerceContractError } from '../../lib/mapper-kit';
import { headersFromJson, negotiationToJson, purchaseToJson, sessionToJson, webhookVerdictToJson } from './commerce.mapper';

const C = commerceV1;
const T = new Date('2026-11-21T18:00:00.000Z');

const session = (over: Partial<commerceV1.CheckoutSession> = {}): commerceV1.CheckoutSession => ({
  commerceSessionId: 'cks_1',
  buyerAgentId: 'a:agent:b',
  mandateId: 'mdt_1',
  merchantDomain: 'm.example',
  mode: C.SessionMode.SESSION_MODE_SHADOW,
  status: C.CheckoutStatus.CHECKOUT_STATUS_REQUIRES_ESCALATION,
  approval: C.ApprovalState.APPROVAL_STATE_PENDING,
  approvalReason: 'merchant_escalation',
  merchantCheckoutId: 'chk_1',
  currency: 'EUR',
  total: '10',
  listTotal: '12',
  savings: '2',
  discountCodes: ['A'],
  merchantCheckoutJson: '{"id":"chk_1"}',
  paymentStage: C.PaymentStage.PAYMENT_STAGE_RESERVED,
  continueUrl: 'https://m.example/continue',
  evidenceHead: 'f'.repeat(64),
  createdAt: T,
  updatedAt: T,
  ...over,
});

describe('sessionToJson', () => {
  it('should name enums by the generated tables, parse the merchant checkout and null the absent optionals', () => {
    expect(sessionToJson(session())).toMatchObject({
      mode: 'shadow',
      status: 'requires_escalation',
      approval: 'pending',
      approval_reason: 'merchant_escalation',
      payment_stage: 'reserved',
      merchant_checkout: { id: 'chk_1' },
      continue_url: 'https://m.example/continue',
      hold_id: null,
      failure_reason: null,
      origin: null,
      created_at: T.toISOString(),
    });
  });

  it.each([
    ['no session', undefined],
    ['an UNSPECIFIED status', session({ status: C.CheckoutStatus.CHECKOUT_STATUS_UNSPECIFIED })],
    ['a merchant checkout that is not JSON', session({ merchantCheckoutJson: '{' })],
    ['a merchant checkout that is an array', session({ merchantCheckoutJson: '[]' })],
    ['no updated_at', session({ updatedAt: undefined })],
  ])('should throw CommerceContractError for %s', (_name, value) => {
    expect(() => sessionToJson(value)).toThrow(CommerceContractError);
  });
});

describe('purchaseToJson', () => {
  it('should parse the signed receipt and refuse one that is not an object', () => {
    const p = { dealId: 'd', commerceSessionId: 'c', buyerAgentId: 'b', merchantDomain: 'm', amount: '1', currency: 'USD', receiptId: 'r', receiptJson: '{"r":1}', completedAt: T };
    expect(purchaseToJson(p)).toMatchObject({ receipt: { r: 1 }, order_id: null, completed_at: T.toISOString() });
    expect(() => purchaseToJson({ ...p, receiptJson: '"r"' })).toThrow(CommerceContractError);
  });

  it('should answer the origin as the one id it names, none as null', () => {
    const p = { dealId: 'd', commerceSessionId: 'c', buyerAgentId: 'b', merchantDomain: 'm', amount: '1', currency: 'USD', receiptId: 'r', receiptJson: '{}', completedAt: T };
    expect(purchaseToJson({ ...p, origin: { workflowRunId: 'run_1' } }).origin).toEqual({ workflow_run_id: 'run_1' });
    expect(purchaseToJson({ ...p, origin: {} }).origin).toBeNull();
    expect(sessionToJson(session({ origin: { contractId: 'ctr_1' } })).origin).toEqual({ contract_id: 'ctr_1' });
  });
});

describe('negotiationToJson', () => {
  const res = { merchantDomain: 'm', status: 'capabilities_incompatible', version: '2026-04-08', capabilities: [], paymentHandlersJson: '', messagesJson: '[{"type":"error"}]', endpoint: 'e' };

  it('should treat empty JSON fields as empty and keep messages', () => {
    expect(negotiationToJson(res)).toMatchObject({ status: 'capabilities_incompatible', payment_handlers: {}, messages: [{ type: 'error' }] });
  });

  it('should refuse an unknown status or messages that are not an array', () => {
    expect(() => negotiationToJson({ ...res, status: 'maybe' })).toThrow(CommerceContractError);
    expect(() => negotiationToJson({ ...res, messagesJson: '{}' })).toThrow(CommerceContractError);
  });
});

describe('webhookVerdictToJson and headersFromJson', () => {
  it('should leave absent optionals out and refuse an unknown scheme', () => {
    expect(webhookVerdictToJson({ valid: false, scheme: 'none', reason: 'signature_missing' })).toEqual({ valid: false, scheme: 'none', reason: 'signature_missing' });
    expect(() => webhookVerdictToJson({ valid: true, scheme: 'magic' })).toThrow(CommerceContractError);
  });

  it('should lower-case header names', () => {
    expect(headersFromJson({ 'Webhook-Id': '1' })).toEqual([{ name: 'webhook-id', value: '1' }]);
  });
});
