import { errors, type CallContext } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import type { ProtoFakeOverrides } from '@exchange/testing';
import type { MarketKit } from './fake-market-kit';

// MarketService: results, verification, verifiers and disputes, built from the requests.

const M = marketV1;
type Overrides = ProtoFakeOverrides<typeof marketV1.MarketServiceService>;

export function deliveryHandlers(kit: MarketKit): Overrides {
  const { contracts, results, disputes, reports, verifiers, verifierListings, id, now, party, idempotent, find, update, pageOf } = kit;
  return {
    async submitResult(req: marketV1.SubmitResultRequest, ctx: CallContext) {
      return idempotent('submitResult', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const result: marketV1.Result = {
          resultId: id('res'),
          contractId: req.contractId,
          sellerId: party(req.sellerId, ctx),
          summary: req.summary,
          artifactRefs: req.artifactRefs,
          payloadJson: req.payloadJson,
          status: M.ResultStatus.RESULT_STATUS_SUBMITTED,
          createdAt: now(),
          updatedAt: now(),
        };
        results.set(result.resultId, result);
        const contract = update(contracts, c.contractId, c, { status: M.ContractStatus.CONTRACT_STATUS_DELIVERED });
        return { result, contract, idempotentReplayed: false };
      });
    },
    async getResult(req: marketV1.GetResultRequest) {
      return { result: find(results, 'result', req.resultId) };
    },
    async listResults(req: marketV1.ListResultsRequest) {
      find(contracts, 'contract', req.contractId);
      const { rows, page } = pageOf([...results.values()].filter((r) => r.contractId === req.contractId));
      return { results: rows, page };
    },
    async submitVerification(req: marketV1.SubmitVerificationRequest, ctx: CallContext) {
      return idempotent('submitVerification', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const report: marketV1.VerificationReport = {
          reportId: id('rpt'),
          contractId: req.contractId,
          resultId: req.resultId,
          verifierId: party(req.verifierId, ctx),
          verdict: req.verdict,
          score: req.score,
          checks: req.checks,
          signature: req.signature,
          createdAt: now(),
        };
        reports.set(req.contractId, report);
        const contract = update(contracts, c.contractId, c, { status: M.ContractStatus.CONTRACT_STATUS_SETTLED });
        return { report, contract, idempotentReplayed: false };
      });
    },
    async getLatestVerification(req: marketV1.GetLatestVerificationRequest) {
      find(contracts, 'contract', req.contractId);
      const report = reports.get(req.contractId);
      if (!report) throw errors.notFound('verification', req.contractId);
      return { report };
    },
    async getVerificationMetrics(req: marketV1.GetVerificationMetricsRequest) {
      if (req.window === M.VerificationWindow.VERIFICATION_WINDOW_1H) {
        return { window: req.window, reports: '0', passed: '0', failed: '0' };
      }
      return { window: req.window, reports: '4', passed: '3', failed: '1', passRate: 0.75, medianLatencyMs: '5400' };
    },
    async registerVerifier(req: marketV1.RegisterVerifierRequest, ctx: CallContext) {
      return idempotent('registerVerifier', req, ctx, () => {
        const verifier: marketV1.Verifier = {
          verifierId: party(req.verifierId, ctx),
          name: req.name,
          description: req.description,
          tags: req.tags,
          fee: req.fee,
          createdAt: now(),
          updatedAt: now(),
        };
        verifiers.push(verifier);
        return { verifier, idempotentReplayed: false };
      });
    },
    async listVerifiers() {
      const { rows, page } = pageOf(verifiers);
      return { verifiers: rows, page };
    },
    async createVerifierListing(req: marketV1.CreateVerifierListingRequest, ctx: CallContext) {
      return idempotent('createVerifierListing', req, ctx, () => {
        const verifierListing: marketV1.VerifierListing = {
          verifierListingId: id('vrf'),
          verifierId: party(req.verifierId, ctx),
          title: req.title,
          tags: req.tags,
          price: req.price,
          turnaround: req.turnaround,
          createdAt: now(),
          updatedAt: now(),
        };
        verifierListings.push(verifierListing);
        return { verifierListing, idempotentReplayed: false };
      });
    },
    async listVerifierListings(req: marketV1.ListVerifierListingsRequest) {
      const { rows, page } = pageOf(verifierListings.filter((l) => req.verifierId === undefined || l.verifierId === req.verifierId));
      return { verifierListings: rows, page };
    },
    async openDispute(req: marketV1.OpenDisputeRequest, ctx: CallContext) {
      return idempotent('openDispute', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const dispute: marketV1.Dispute = {
          disputeId: id('dsp'),
          contractId: req.contractId,
          openedBy: party(req.openedBy, ctx),
          reason: req.reason,
          evidenceRefs: req.evidenceRefs,
          status: M.DisputeStatus.DISPUTE_STATUS_OPEN,
          createdAt: now(),
          updatedAt: now(),
        };
        disputes.set(dispute.disputeId, dispute);
        const contract = update(contracts, c.contractId, c, { status: M.ContractStatus.CONTRACT_STATUS_DISPUTED, disputedFrom: c.status });
        return { dispute, contract, idempotentReplayed: false };
      });
    },
    async getDispute(req: marketV1.GetDisputeRequest) {
      return { dispute: find(disputes, 'dispute', req.disputeId) };
    },
    async listDisputes(req: marketV1.ListDisputesRequest) {
      find(contracts, 'contract', req.contractId);
      const { rows, page } = pageOf([...disputes.values()].filter((d) => d.contractId === req.contractId));
      return { disputes: rows, page };
    },
    async resolveDispute(req: marketV1.ResolveDisputeRequest, ctx: CallContext) {
      return idempotent('resolveDispute', req, ctx, () => {
        const d = find(disputes, 'dispute', req.disputeId);
        const dispute = update(disputes, d.disputeId, d, {
          status: M.DisputeStatus.DISPUTE_STATUS_RESOLVED,
          outcome: req.outcome,
          sellerShareBps: req.sellerShareBps,
          rationale: req.rationale,
          resolvedBy: ctx.actor ?? undefined,
          resolvedAt: now(),
          receiptId: id('rcpt'),
        });
        const c = find(contracts, 'contract', d.contractId);
        return { dispute, contract: c, idempotentReplayed: false };
      });
    },
  };
}
