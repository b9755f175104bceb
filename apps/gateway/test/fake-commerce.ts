import { errors } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';

// A CommerceService fake for the gateway's commerce and mandates specs: answers built from the
// request (so a spec can see what the gateway sent come back as JSON), and the few refusals the
// specs exercise through the real gRPC error path. Every other rule is commerce's own.

const C = commerceV1;
export const T0 = new Date('2026-11-21T18:00:00.000Z');
export const UNKNOWN = 'cks_unknown';

export function session(over: Partial<commerceV1.CheckoutSession> = {}): commerceV1.CheckoutSession {
  return {
    commerceSessionId: 'cks_1',
    buyerAgentId: 'acme:agent:buyer-1',
    mandateId: 'mdt_1',
    merchantDomain: 'sandbox-merchant.local',
    mode: C.SessionMode.SESSION_MODE_LIVE,
    status: C.CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE,
    approval: C.ApprovalState.APPROVAL_STATE_NOT_REQUIRED,
    merchantCheckoutId: 'chk_1',
    currency: 'USD',
    total: '34.2',
    listTotal: '38',
    savings: '3.8',
    discountCodes: [],
    merchantCheckoutJson: JSON.stringify({ id: 'chk_1', status: 'ready_for_complete' }),
    paymentStage: C.PaymentStage.PAYMENT_STAGE_NONE,
    evidenceHead: 'a'.repeat(64),
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function mandate(over: Partial<commerceV1.Mandate> = {}): commerceV1.Mandate {
  return {
    mandateId: 'mdt_1',
    signerAgentId: 'acme:agent:owner',
    agentId: 'acme:agent:buyer-1',
    scopeMerchants: ['sandbox-merchant.local'],
    scopeCategories: [],
    scopeSkus: [],
    perTransaction: '100',
    totalLimit: '500',
    currency: 'USD',
    expiresAt: new Date('2027-01-01T00:00:00.000Z'),
    signature: 'sig',
    status: C.MandateStatus.MANDATE_STATUS_ACTIVE,
    spent: '0',
    reserved: '0',
    autonomy: { mode: C.AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '50', currency: 'USD' }, approvalForNewMerchants: false },
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function snapshot(over: Partial<commerceV1.SessionSnapshot> = {}): commerceV1.SessionSnapshot {
  return {
    commerceSessionId: 'cs_1',
    status: C.CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE,
    approval: C.ApprovalState.APPROVAL_STATE_NOT_REQUIRED,
    currency: 'USD',
    total: '70',
    listTotal: '70',
    savings: '0',
    discountCodes: [],
    unavailableItems: [],
    createdAt: T0,
    ...over,
  };
}

export function postPurchaseCase(over: Partial<commerceV1.PostPurchaseCase> = {}): commerceV1.PostPurchaseCase {
  return {
    caseId: 'case_1',
    dealId: 'deal_1',
    buyerAgentId: 'acme:agent:buyer-1',
    merchantDomain: 'sandbox-merchant.local',
    type: C.CaseType.CASE_TYPE_REFUND,
    reason: 'broken',
    amount: '34.2',
    currency: 'USD',
    status: C.CaseStatus.CASE_STATUS_OPEN,
    evidenceRefs: [],
    refundState: C.RefundState.REFUND_STATE_NONE,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

// Post-purchase cases: case_unknown is 404, case_foreign 403 not_deal_buyer; an approve answers a credited case with its receipt.
const caseKnown = (id: string) => {
  if (id === 'case_unknown') throw errors.notFound('case', id);
  if (id === 'case_foreign') throw errors.permissionDenied('not_deal_buyer', 'only the buyer of deal deal_1 may do this', { deal_id: 'deal_1' });
};

const known = (id: string) => {
  if (id === UNKNOWN) throw errors.notFound('checkout_session', id);
};

export function startFakeCommerce(): Promise<ProtoFake> {
  return startProtoFake(C.CommerceServiceService, {
    getPlatformProfile: () => ({ profileJson: JSON.stringify({ ucp: { version: '2026-04-08', capabilities: {} }, signing_keys: [] }) }),
    getMerchantProfile: (req) => ({
      merchantDomain: req.merchantDomain,
      profileJson: JSON.stringify({ ucp: { version: '2026-04-08', services: {}, payment_handlers: {} } }),
      sourceUrl: `https://${req.merchantDomain}`,
      fetchedAt: T0,
      cacheExpiresAt: new Date(T0.getTime() + 300_000),
    }),
    negotiate: (req) => ({
      merchantDomain: req.merchantDomain,
      status: 'ok',
      version: '2026-04-08',
      capabilities: [
        { name: 'dev.ucp.shopping.checkout', version: '2026-04-08', extends: [] },
        { name: 'dev.ucp.shopping.discount', version: '2026-04-08', extends: ['dev.ucp.shopping.checkout'] },
      ],
      paymentHandlersJson: '{"com.example.pay":[]}',
      messagesJson: '[]',
      endpoint: `https://${req.merchantDomain}/ucp`,
    }),
    createCheckout: (req) => ({
      session: session({
        buyerAgentId: req.buyerAgentId,
        mandateId: req.mandateId,
        merchantDomain: req.merchantDomain,
        mode: req.mode,
        discountCodes: req.discountCodes,
        intentId: req.intentId,
        origin: req.origin,
        merchantCheckoutJson: JSON.stringify({ id: 'chk_1', line_items: JSON.parse(req.lineItemsJson) as unknown }),
      }),
      idempotentReplayed: req.idempotencyKey === 'replayed-key',
    }),
    getCheckout: (req) => (known(req.commerceSessionId), { session: session({ commerceSessionId: req.commerceSessionId }) }),
    updateCheckout: (req) => (
      known(req.commerceSessionId),
      { session: session({ commerceSessionId: req.commerceSessionId, discountCodes: req.discountCodes?.codes ?? [] }), idempotentReplayed: false }
    ),
    completeCheckout: (req) => (
      known(req.commerceSessionId),
      {
        session: session({ commerceSessionId: req.commerceSessionId, status: C.CheckoutStatus.CHECKOUT_STATUS_COMPLETED, paymentStage: C.PaymentStage.PAYMENT_STAGE_SETTLED, dealId: 'deal_1', receiptId: 'rcpt_1', orderId: 'ord_1' }),
        idempotentReplayed: false,
        purchase: {
          dealId: 'deal_1',
          commerceSessionId: req.commerceSessionId,
          buyerAgentId: 'acme:agent:buyer-1',
          merchantDomain: 'sandbox-merchant.local',
          amount: '34.2',
          currency: 'USD',
          receiptId: 'rcpt_1',
          receiptJson: JSON.stringify({ receipt_id: 'rcpt_1', amount: '34.2' }),
          orderId: 'ord_1',
          completedAt: T0,
        },
      }
    ),
    cancelCheckout: (req) => (
      known(req.commerceSessionId),
      { session: session({ commerceSessionId: req.commerceSessionId, status: C.CheckoutStatus.CHECKOUT_STATUS_CANCELED }), idempotentReplayed: false }
    ),
    submitApproval: (req) => ({
      session: session({
        commerceSessionId: req.commerceSessionId,
        approval: req.decision === C.ApprovalDecision.APPROVAL_DECISION_APPROVE ? C.ApprovalState.APPROVAL_STATE_APPROVED : C.ApprovalState.APPROVAL_STATE_DENIED,
      }),
    }),
    applyDiscount: (req) => ({
      session: session({ commerceSessionId: req.commerceSessionId, discountCodes: req.codes }),
      applied: req.codes.filter((c) => c !== 'OLD5'),
      rejected: req.codes.filter((c) => c === 'OLD5').map((code) => ({ code, reason: 'discount_code_expired' })),
      idempotentReplayed: false,
    }),
    listArtifacts: (req) => ({
      items: [
        {
          evidenceId: 'evd_1',
          commerceSessionId: req.commerceSessionId,
          seq: 1,
          kind: 'merchant_request',
          operation: 'create_checkout',
          contentJson: JSON.stringify({ method: 'POST', url: 'https://sandbox-merchant.local/ucp/checkout-sessions', headers: {}, body: {} }),
          contentSha256: 'b'.repeat(64),
          prevHash: '0'.repeat(64),
          hash: 'c'.repeat(64),
          schemaResult: 'valid',
          recordedAt: T0,
        },
      ],
      page: { nextCursor: req.page?.limit === 1 ? 'cur_2' : '' },
      chainValid: true,
    }),
    exportCasefile: (req) => ({ docketJson: JSON.stringify({ docket_id: 'dkt_1', session: req.commerceSessionId, signature: 'sig' }) }),
    verifyCasefile: (req) => ({
      valid: req.docketJson === undefined || (JSON.parse(req.docketJson) as { signature?: string }).signature === 'sig',
      checks: [{ ref: 'signature', ok: true }, { ref: 'evidence_chain', ok: false, reason: 'hash mismatch at seq 2' }],
      docketId: 'dkt_1',
    }),
    verifyWebhook: (req) => ({
      valid: req.headers.some((h) => h.name === 'signature'),
      scheme: req.headers.some((h) => h.name === 'signature') ? 'ucp_rfc9421' : 'none',
      ...(req.headers.some((h) => h.name === 'signature') ? { keyId: 'merchant-2026-11', merchantDomain: 'sandbox-merchant.local' } : { reason: 'signature_missing' }),
    }),
    receiveOrderWebhook: (req) => {
      const signature = req.headers.find((h) => h.name === 'signature')?.value;
      if (signature === undefined) return { accepted: false, reason: 'signature_missing', duplicate: false };
      if (signature === 'bad-digest') return { accepted: false, reason: 'digest_mismatch', duplicate: false };
      return { accepted: true, commerceSessionId: 'cks_1', duplicate: req.headers.some((h) => h.name === 'webhook-id' && h.value === 'seen') };
    },
    createMandate: (req) => ({
      mandate: mandate({
        signerAgentId: req.signerAgentId,
        agentId: req.agentId,
        scopeMerchants: req.scopeMerchants,
        scopeCategories: req.scopeCategories,
        scopeSkus: req.scopeSkus,
        perTransaction: req.perTransaction,
        totalLimit: req.totalLimit,
        currency: req.currency,
        expiresAt: req.expiresAt,
        signature: req.signature,
        ...(req.autonomy ? { autonomy: req.autonomy } : {}),
      }),
      idempotentReplayed: false,
    }),
    getMandate: (req) => {
      if (req.mandateId === 'mdt_unknown') throw errors.notFound('mandate', req.mandateId);
      return { mandate: mandate({ mandateId: req.mandateId }) };
    },
    listMandates: (req) => ({ mandates: [mandate(), mandate({ mandateId: 'mdt_2', status: req.status ?? C.MandateStatus.MANDATE_STATUS_ACTIVE })], page: { nextCursor: '' } }),
    getAutonomy: (req) => ({ mandateId: req.mandateId, autonomy: mandate().autonomy }),
    putAutonomy: (req) => ({ mandateId: req.mandateId, autonomy: req.autonomy }),
    setMandateStatus: (req) => ({ mandate: mandate({ mandateId: req.mandateId, status: req.status }) }),
    // Intents and feedback: the answers echo the request.
    createIntent: (req) => ({
      intent: {
        intentId: 'int_1', agentId: req.agentId, description: req.description, merchants: req.merchants, skus: req.skus, budget: req.budget,
        requiresRefundability: req.requiresRefundability, expiresAt: req.expiresAt, createdAt: T0,
      },
      idempotentReplayed: req.idempotencyKey === 'seen',
    }),
    recordFeedback: (req) => ({
      feedback: { feedbackId: 'fbk_1', dealId: req.dealId, buyerAgentId: req.actor?.agentId ?? '', merchantDomain: 'sandbox-merchant.local', rating: req.rating, comment: req.comment, createdAt: T0 },
    }),
    // Transparency: answers echo the request where a spec checks what the gateway sent.
    compareShadow: (req) => ({
      from: req.from ?? new Date('2026-10-22T18:00:00.000Z'),
      to: req.to ?? T0,
      comparisons: [
        {
          merchantDomain: 'sandbox-merchant.local',
          buyerAgentId: req.buyerAgentId ?? 'acme:agent:buyer-1',
          cartKey: 'e'.repeat(64),
          shadow: snapshot({ commerceSessionId: 'cs_shadow', total: '63', savings: '7', discountCodes: ['10OFF'] }),
          live: snapshot({ commerceSessionId: 'cs_live' }),
          differences: [{ field: 'total', shadow: '63', live: '70' }],
        },
        { merchantDomain: 'sandbox-merchant.local', buyerAgentId: 'acme:agent:buyer-1', cartKey: 'f'.repeat(64), shadow: snapshot({ commerceSessionId: 'cs_alone', unavailableItems: ['gardenias'] }), differences: [] },
      ],
      summary: { shadowSessions: '2', matched: '1', withDifferences: '1' },
      page: { nextCursor: req.page?.limit === 1 ? 'cur_2' : '' },
    }),
    getMonthlyRollup: (req) => {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(req.window)) throw errors.invalidArgument('invalid_window', 'window must be a month YYYY-MM');
      return {
        window: req.window,
        from: new Date('2026-09-01T00:00:00.000Z'),
        to: new Date('2026-10-01T00:00:00.000Z'),
        currencies: [{ currency: 'USD', spend: '82.345678', savings: '10', purchases: '2', escalations: '2', approvalsDenied: '1', returns: '1', refunds: '1', chargebacks: '0', refunded: '20' }],
      };
    },
    getSpendSavingsRollup: (req) => ({
      window: req.window,
      rows: [{ agentId: req.agentId ?? 'acme:agent:buyer-1', currency: req.currency ?? 'USD', spend: '40', savings: '5', purchases: '1', refunded: '0', netSpend: '40' }],
      page: { nextCursor: '' },
    }),
    getSessionTransparency: (req) => {
      known(req.commerceSessionId);
      return {
        session: session({ commerceSessionId: req.commerceSessionId, intentId: 'int_1' }),
        lifecycle: [
          { seq: 1, kind: 'created', to: 'ready_for_complete/not_required/none', at: T0 },
          { seq: 2, kind: 'canceled', from: 'ready_for_complete/not_required/none', to: 'canceled/not_required/none', at: T0 },
        ],
        evidence: [{ evidenceId: 'evd_1', seq: 1, kind: 'merchant_request', operation: 'create_checkout', contentSha256: 'b'.repeat(64), hash: 'c'.repeat(64), recordedAt: T0 }],
        chainValid: true,
        intent: {
          intentId: 'int_1', agentId: 'acme:agent:buyer-1', description: 'roses', merchants: [], skus: [], budget: { amount: '100', currency: 'USD' },
          requiresRefundability: false, expiresAt: new Date('2026-12-01T00:00:00.000Z'), createdAt: T0,
        },
        caseIds: ['case_1'],
      };
    },
    createCase: (req) => {
      if (req.dealId === 'deal_unknown') throw errors.notFound('purchase', req.dealId);
      return {
        case: postPurchaseCase({ dealId: req.dealId, type: req.type, reason: req.reason, amount: req.amount ?? '34.2', evidenceRefs: req.evidenceRefs, buyerAgentId: req.actor?.agentId ?? '' }),
        idempotentReplayed: req.idempotencyKey === 'replayed-key',
      };
    },
    getCase: (req) => (caseKnown(req.caseId), { case: postPurchaseCase({ caseId: req.caseId }) }),
    updateCase: (req) => {
      caseKnown(req.caseId);
      if (req.status !== undefined && req.actor?.operator !== true) throw errors.permissionDenied('operator_required', 'only the operator moves a case’s status');
      if (req.status === C.CaseStatus.CASE_STATUS_CLOSED) throw errors.invalidState('case', 'open', 'closed');
      const approved = req.status === C.CaseStatus.CASE_STATUS_APPROVED;
      return {
        case: postPurchaseCase({
          caseId: req.caseId,
          status: req.status ?? C.CaseStatus.CASE_STATUS_OPEN,
          evidenceRefs: req.addEvidenceRefs,
          ...(approved ? { refundState: C.RefundState.REFUND_STATE_CREDITED, refundReceiptId: 'rcpt_r1' } : {}),
        }),
        refundReceiptJson: approved ? JSON.stringify({ receipt_id: 'rcpt_r1', kind: 'purchase_refund', amount: '34.2' }) : undefined,
      };
    },
    listCaseEvents: (req) => (
      caseKnown(req.caseId),
      {
        events: [
          { eventId: 'evt_1', caseId: req.caseId, seq: 1, type: 'opened', toStatus: C.CaseStatus.CASE_STATUS_OPEN, actor: 'acme:agent:buyer-1', evidenceRefs: ['photo-1'], amount: '34.2', at: T0 },
          { eventId: 'evt_2', caseId: req.caseId, seq: 2, type: 'refund_credited', actor: 'system:commerce', evidenceRefs: [], amount: '34.2', receiptId: 'rcpt_r1', at: T0 },
        ],
        page: { nextCursor: req.page?.limit === 1 ? 'cur_2' : '' },
      }
    ),
    getPurchaseTimeline: (req) => {
      if (req.dealId === 'deal_unknown') throw errors.notFound('purchase', req.dealId);
      if (req.dealId === 'deal_foreign') throw errors.permissionDenied('not_deal_buyer', 'only the purchase’s buyer or the operator may read its timeline');
      return {
        dealId: req.dealId,
        commerceSessionId: 'cks_1',
        entries: [
          { at: T0, type: 'session.created', sourceId: 'cks_1', detailsJson: JSON.stringify({ seq: 1, status: 'ready_for_complete' }) },
          { at: T0, type: 'receipt', sourceId: 'rcpt_1', detailsJson: JSON.stringify({ receipt_id: 'rcpt_1', amount: '34.2', currency: 'USD' }) },
        ],
      };
    },
  });
}
