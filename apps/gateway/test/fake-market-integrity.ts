import { errors, type CallContext } from '@exchange/platform';
import { marketV1, marketV1Governance, marketV1Integrity, walletV1 } from '@exchange/proto';
import { protoService } from '@exchange/testing';
import { SWITCHES, type MarketKit } from './fake-market-kit';

// The market's integrity and governance services (issue 6), served by the fake market's gRPC
// server on the same port: operator-only changes with an audit trail, the read_only / kill-switch
// snapshot the gateway's guard reads, erroneous-clear corrections and resale reviews. The rules
// themselves are tested in apps/market.

const M = marketV1;

const operatorOnly = (ctx: CallContext) => {
  if (!ctx.actor?.startsWith('operator:')) throw errors.permissionDenied('operator_required', 'operator only');
};

export function integrityService(kit: MarketKit) {
  const { contracts, state, id, now, page } = kit;
  const audit = (action: string, ctx: CallContext, reason: string, subject: string, details: unknown) =>
    state.audit.unshift({
      auditId: id('iau'),
      action,
      operator: ctx.actor ?? '',
      reason,
      subject,
      detailsJson: JSON.stringify(details),
      createdAt: now(),
    });

  return protoService(marketV1Integrity.MarketIntegrityServiceService, {
    async getIntegrityState() {
      return { integrity: state.snapshot };
    },
    async setIntegrityState(req: marketV1Integrity.SetIntegrityStateRequest, ctx: CallContext) {
      operatorOnly(ctx);
      if (req.state === state.snapshot.state) throw errors.invalidState('market', String(req.state), String(req.state));
      state.snapshot = { ...state.snapshot, state: req.state, reason: req.reason, setBy: ctx.actor ?? undefined, since: now() };
      audit('state_changed', ctx, req.reason, String(req.state), { state: req.state });
      return { integrity: state.snapshot, idempotentReplayed: false };
    },
    async setKillSwitch(req: marketV1Integrity.SetKillSwitchRequest, ctx: CallContext) {
      operatorOnly(ctx);
      if (!SWITCHES.includes(req.name)) throw errors.invalidArgument('validation_failed', 'unknown kill switch');
      state.snapshot = {
        ...state.snapshot,
        killSwitches: state.snapshot.killSwitches.map((k) =>
          k.name === req.name ? { name: k.name, enabled: req.enabled, reason: req.reason, setBy: ctx.actor ?? undefined, updatedAt: now() } : k,
        ),
      };
      audit('kill_switch_set', ctx, req.reason, req.name, { enabled: req.enabled });
      return { integrity: state.snapshot, idempotentReplayed: false };
    },
    async correctErroneousClear(req: marketV1Integrity.CorrectErroneousClearRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const c = contracts.get(req.contractId);
      if (!c) throw errors.notFound('contract', req.contractId);
      if (c.status !== M.ContractStatus.CONTRACT_STATUS_SETTLED) throw errors.invalidState('contract', 'open', 'corrected');
      const receiptId = id('rcpt');
      const contract: marketV1.Contract = {
        ...c,
        status: M.ContractStatus.CONTRACT_STATUS_CORRECTED,
        correctedAt: now(),
        correctionReceiptId: receiptId,
        correctionReason: req.reason,
      };
      contracts.set(c.contractId, contract);
      const receipt: walletV1.Receipt = {
        receiptId,
        kind: walletV1.ReceiptKind.RECEIPT_KIND_CORRECTION,
        contractId: c.contractId,
        holdId: c.holdId ?? '',
        payer: c.buyerId,
        payee: c.sellerId ?? '',
        amount: '90',
        fee: '0',
        refundedAmount: '90',
        currency: 'CREDIT',
        journalEntryIds: ['jrn_fake-1'],
        settledAt: now(),
        signature: 'sig',
        signerPublicKey: 'key',
        correctsReceiptId: c.receiptId,
        reason: req.reason,
      };
      audit('erroneous_clear', ctx, req.reason, c.contractId, {});
      return { contract, receipt, idempotentReplayed: false };
    },
    async listIntegrityAudit(req: marketV1Integrity.ListIntegrityAuditRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const entries = state.audit.filter((e) => req.action === undefined || e.action === req.action);
      return { entries, page: page(entries) };
    },
  });
}

export function governanceService(kit: MarketKit) {
  const { contracts, state, now, page } = kit;
  return protoService(marketV1Governance.ContractGovernanceServiceService, {
    async updateBuyerAlias(req: marketV1Governance.UpdateBuyerAliasRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const c = contracts.get(req.contractId);
      if (!c) throw errors.notFound('contract', req.contractId);
      const priv = req.buyerPrivate ?? true;
      const contract = { ...c, buyerPrivate: priv, buyerAlias: priv ? `anon:fakealias${contracts.size}` : undefined, updatedAt: now() };
      contracts.set(c.contractId, contract);
      return { contract, previousAlias: c.buyerAlias, idempotentReplayed: false };
    },
    async listResaleReviews(req: marketV1Governance.ListResaleReviewsRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const rows = [...state.reviews.values()].filter((r) => req.status === undefined || r.status === req.status);
      return { reviews: rows, page: page(rows) };
    },
    async getResaleReview(req: marketV1Governance.GetResaleReviewRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const review = state.reviews.get(req.decisionRef);
      if (!review) throw errors.notFound('resale_review', req.decisionRef);
      return { review };
    },
    async decideResaleReview(req: marketV1Governance.DecideResaleReviewRequest, ctx: CallContext) {
      operatorOnly(ctx);
      const r = state.reviews.get(req.decisionRef);
      if (!r) throw errors.notFound('resale_review', req.decisionRef);
      if (r.status !== M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING) throw errors.invalidState('resale review', 'decided', req.decision);
      const review: marketV1.ResaleReview = {
        ...r,
        status: req.decision === 'approve' ? M.ResaleReviewStatus.RESALE_REVIEW_STATUS_APPROVED : M.ResaleReviewStatus.RESALE_REVIEW_STATUS_REJECTED,
        decidedBy: ctx.actor ?? undefined,
        reason: req.reason,
        decidedAt: now(),
        updatedAt: now(),
      };
      state.reviews.set(r.decisionRef, review);
      return { review, contract: contracts.get(r.contractId), idempotentReplayed: false };
    },
  });
}
