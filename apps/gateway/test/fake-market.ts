import { errors, startGrpcServer, unary, type CallContext, type GrpcServerHandle } from '@exchange/platform';
import { marketV1 } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import type { RecordedCall } from './fake-identity';
import { part2Handlers, type Part2State } from './fake-market-part2';

// An in-memory market behind a REAL grpc-js server (port 0), for the gateway's mapping, auth and
// error tests. It stores what it is sent and answers with resources built from the requests,
// replays idempotency keys like the real service (same caller + key + payload → stored answer
// with idempotent_replayed; other payload → idempotency_key_reused) and answers NOT_FOUND for
// unknown ids. The market's rules (states, parties, saga) live in apps/market and its suite;
// failures here come from failNext.

const M = marketV1;

export interface FakeMarket {
  address: string;
  handle: GrpcServerHandle;
  calls: RecordedCall[];
  contracts: Map<string, marketV1.Contract>;
  /** State of the issue-6 services (integrity snapshot, audit, threads, reviews). */
  part2: Part2State;
  /** The next call of `method` (camelCase, e.g. "awardOffer") fails with `err` (once). */
  failNext(method: string, err: Error): void;
  lastCall<T = unknown>(method: string): { request: T; ctx: RecordedCall['ctx'] };
  stop(): Promise<void>;
}

export async function startFakeMarket(): Promise<FakeMarket> {
  const calls: RecordedCall[] = [];
  const failures = new Map<string, Error>();
  const contracts = new Map<string, marketV1.Contract>();
  const listings = new Map<string, marketV1.Listing>();
  const offers = new Map<string, marketV1.Offer>();
  const results = new Map<string, marketV1.Result>();
  const disputes = new Map<string, marketV1.Dispute>();
  const reports = new Map<string, marketV1.VerificationReport>(); // by contract
  const verifiers: marketV1.Verifier[] = [];
  const verifierListings: marketV1.VerifierListing[] = [];
  const outcomes = new Map<string, { fingerprint: string; response: Record<string, unknown> }>();
  let seq = 0;
  const id = (prefix: string) => `${prefix}_fake-${++seq}`;
  const now = () => new Date(1_790_000_000_000 + seq * 1000);
  const party = (value: string, ctx: CallContext) => value || ctx.agentId || '';

  const idempotent = <Req extends { idempotencyKey: string }, Res extends Record<string, unknown>>(
    method: string,
    req: Req,
    ctx: CallContext,
    effect: () => Res,
  ): Res => {
    if (req.idempotencyKey === '') return effect();
    const { idempotencyKey, ...payload } = req;
    const fingerprint = JSON.stringify(payload);
    const scope = `${ctx.actor}|${ctx.agentId ?? ''}|${method}|${idempotencyKey}`;
    const stored = outcomes.get(scope);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was used with a different request');
      }
      return { ...(stored.response as Res), idempotentReplayed: true };
    }
    const response = effect();
    outcomes.set(scope, { fingerprint, response });
    return response;
  };

  const find = <T>(map: Map<string, T>, entity: string, key: string): T => {
    const value = map.get(key);
    if (!value) throw errors.notFound(entity, key);
    return value;
  };
  const update = <T extends { updatedAt: Date | undefined }>(map: Map<string, T>, key: string, value: T, over: Partial<T>): T => {
    const next = { ...value, ...over, updatedAt: now() };
    map.set(key, next);
    return next;
  };
  const pageOf = <T>(rows: T[]) => ({ rows, page: { nextCursor: rows.length > 1 ? 'fake-cursor' : '' } });

  const handlers = {
    async createContract(req: marketV1.CreateContractRequest, ctx: CallContext) {
      return idempotent('createContract', req, ctx, () => {
        const contract: marketV1.Contract = {
          contractId: id('ctr'),
          buyerId: party(req.buyerId, ctx),
          title: req.title,
          description: req.description,
          tags: req.tags,
          // Left out with a template: the fake "inherits" fixed values.
          budget: req.budget ?? { amount: '50', currency: 'CREDIT' },
          deadline: req.deadline ?? new Date('2030-01-01T00:00:00.000Z'),
          acceptanceCriteria: req.acceptanceCriteria,
          verificationMode: req.verificationMode || M.VerificationMode.VERIFICATION_MODE_BUYER,
          buyerPrivate: req.buyerPrivate,
          buyerAlias: req.buyerPrivate ? 'anon:fakealiasbuy' : undefined,
          buyerAliasGeneration: 0,
          sandbox: false,
          verifierId: req.verifierId,
          listingId: req.listingId,
          templateId: req.templateId,
          workProductTemplateId: req.workProductTemplateId,
          fixtureId: req.fixtureId,
          resaleOf: req.resaleOf,
          status: M.ContractStatus.CONTRACT_STATUS_OPEN,
          escrowStatus: M.EscrowStatus.ESCROW_STATUS_NONE,
          createdAt: now(),
          updatedAt: now(),
        };
        contracts.set(contract.contractId, contract);
        return { contract, idempotentReplayed: false };
      });
    },
    async getContract(req: marketV1.GetContractRequest) {
      return { contract: find(contracts, 'contract', req.contractId) };
    },
    async listContracts() {
      const { rows, page } = pageOf([...contracts.values()]);
      return { contracts: rows, page };
    },
    async cancelContract(req: marketV1.CancelContractRequest, ctx: CallContext) {
      return idempotent('cancelContract', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const contract = update(contracts, req.contractId, c, { status: M.ContractStatus.CONTRACT_STATUS_CANCELLED, cancelReason: req.reason });
        return { contract, idempotentReplayed: false };
      });
    },
    async createListing(req: marketV1.CreateListingRequest, ctx: CallContext) {
      return idempotent('createListing', req, ctx, () => {
        const listing: marketV1.Listing = {
          listingId: id('lst'),
          sellerId: party(req.sellerId, ctx),
          title: req.title,
          description: req.description,
          tags: req.tags,
          price: req.price,
          turnaround: req.turnaround,
          createdAt: now(),
          updatedAt: now(),
        };
        listings.set(listing.listingId, listing);
        return { listing, idempotentReplayed: false };
      });
    },
    async getListing(req: marketV1.GetListingRequest) {
      return { listing: find(listings, 'listing', req.listingId) };
    },
    async listListings(req: marketV1.ListListingsRequest) {
      const { rows, page } = pageOf([...listings.values()].filter((l) => req.tag === undefined || l.tags.includes(req.tag)));
      return { listings: rows, page };
    },
    async submitOffer(req: marketV1.SubmitOfferRequest, ctx: CallContext) {
      return idempotent('submitOffer', req, ctx, () => {
        find(contracts, 'contract', req.contractId);
        const offer: marketV1.Offer = {
          offerId: id('ofr'),
          contractId: req.contractId,
          sellerId: party(req.sellerId, ctx),
          price: req.price,
          eta: req.eta,
          terms: req.terms,
          status: M.OfferStatus.OFFER_STATUS_SUBMITTED,
          createdAt: now(),
          updatedAt: now(),
        };
        offers.set(offer.offerId, offer);
        return { offer, idempotentReplayed: false };
      });
    },
    async getOffer(req: marketV1.GetOfferRequest) {
      return { offer: find(offers, 'offer', req.offerId) };
    },
    async listOffers(req: marketV1.ListOffersRequest) {
      find(contracts, 'contract', req.contractId);
      const { rows, page } = pageOf([...offers.values()].filter((o) => o.contractId === req.contractId));
      return { offers: rows, page };
    },
    async withdrawOffer(req: marketV1.WithdrawOfferRequest, ctx: CallContext) {
      return idempotent('withdrawOffer', req, ctx, () => {
        const o = find(offers, 'offer', req.offerId);
        return { offer: update(offers, req.offerId, o, { status: M.OfferStatus.OFFER_STATUS_WITHDRAWN }), idempotentReplayed: false };
      });
    },
    async awardOffer(req: marketV1.AwardOfferRequest, ctx: CallContext) {
      return idempotent('awardOffer', req, ctx, () => {
        const c = find(contracts, 'contract', req.contractId);
        const o = find(offers, 'offer', req.offerId);
        const offer = update(offers, o.offerId, o, { status: M.OfferStatus.OFFER_STATUS_AWARDED });
        const contract = update(contracts, c.contractId, c, {
          status: M.ContractStatus.CONTRACT_STATUS_AWARDED,
          sellerId: o.sellerId,
          awardedOfferId: o.offerId,
          price: o.price,
          holdId: id('hld'),
          escrowStatus: M.EscrowStatus.ESCROW_STATUS_HELD,
          awardedAt: now(),
        });
        return { contract, offer, idempotentReplayed: false };
      });
    },
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

  const implement = (fns: object) =>
    Object.fromEntries(
      Object.entries(fns).map(([method, fn]) => [
        method,
        unary(testLogger, method, async (req: unknown, ctx: CallContext) => {
          calls.push({ method, ctx: { requestId: ctx.requestId, traceId: ctx.traceId, actor: ctx.actor, agentId: ctx.agentId }, request: req });
          const failure = failures.get(method);
          if (failure) {
            failures.delete(method);
            throw failure;
          }
          return (fn as (r: unknown, c: CallContext) => Promise<unknown>)(req, ctx);
        }),
      ]),
    );
  const implementation = implement(handlers) as unknown as marketV1.MarketServiceServer;
  const part2 = part2Handlers(contracts, id, now);
  const handle = await startGrpcServer({
    name: 'exchange.market.v1.MarketService',
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    register: (server) => {
      server.addService(M.MarketServiceService, implementation);
      for (const { definition, handlers: fns } of part2.services) server.addService(definition, implement(fns) as never);
    },
  });
  handle.setServing();
  return {
    address: `127.0.0.1:${handle.port}`,
    handle,
    calls,
    contracts,
    part2: part2.state,
    failNext: (method, err) => void failures.set(method, err),
    lastCall<T>(method: string) {
      const call = calls.filter((c) => c.method === method).at(-1);
      if (!call) throw new Error(`no ${method} call recorded`);
      return { request: call.request as T, ctx: call.ctx };
    },
    stop: () => handle.shutdown(100),
  };
}
