import { must } from '../domain/invariant';
import { errors, newId, uuidv7 } from '@exchange/platform';
import { identityV1, marketV1 } from '@exchange/proto';
import type pg from 'pg';
import { isUniqueViolation } from '../data/db';
import * as repo from '../data/market.repo';
import { actingAgent, isOperator, requireOperator, resolveParty, type Caller } from '../domain/caller';
import type { Contract, Dispute, Offer, Result, SagaStep, VerificationReport } from '../domain/model';
import { feeOf, resolutionPlan } from '../domain/money';
import { walletKey, type AwardParams, type ReleaseParams, type ResolveParams, type SettleParams } from '../domain/steps';
import { contractView, privateFilterViewer } from '../domain/privacy';
import { checkDisputeWindow, transition } from '../domain/states';
import * as v from '../domain/validation';
import { checkChecks, checkScore, reportSigningPayload, verificationMetrics, windowStart } from '../domain/verification';
import { events } from '../events/market.events';
import * as map from '../grpc/market.mapper';
import type { MarketContext } from '../saga/context';
import { drain, runStep, type StepOutcome } from '../saga/executor';
import { asDomainError, walletUnavailable } from '../saga/wallet-errors';
import { idempotent } from './idempotency';
import { inTransaction, notFound, pageQuery } from './service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { DEFAULT_RESALE_MAX_DEPTH } from '../governance/resale';
import { checkResaleAward, checkResaleOffer, planResale, recordResaleReview, withResaleReview, withResaleReviews } from '../governance/resale-hooks.service';
import { resolveContractDefaults } from '../catalog/contract-defaults.service';
import { isSandboxContract } from '../catalog/inheritance';

/** Base64 of a 64-byte ed25519 signature; anything else is not a signature (no identity call). */
const SIGNATURE_B64 = /^[A-Za-z0-9+/]{86}==$/;

/** OpenDispute drains and retries when a step it may not supersede shows up; then 503 wallet_unavailable. */
const DISPUTE_DRAIN_ROUNDS = 3;

/**
 * A pending step OpenDispute may drop: a settle step whose last run got a definite refusal from
 * wallet-ledger (kill switch…), so the Settle call never took effect. A step never run, or whose
 * last failure was indefinite, may already have been executed by the wallet.
 */
function isSupersedable(step: SagaStep): boolean {
  return step.kind === 'settle' && step.attempts > 0 && step.lastFailureDefinite;
}

/**
 * Offers and awards need the contract's deadline still ahead: at or after it, 409
 * deadline_passed. The contract itself is left open for the deadline sweeper to expire.
 */
function checkBeforeDeadline(c: Contract, now: Date): void {
  if (now.getTime() >= c.deadline.getTime()) {
    const deadline = c.deadline.toISOString();
    throw errors.failedPrecondition('deadline_passed', `the contract's deadline ${deadline} has passed`, { deadline });
  }
}


function newStep(contractId: string, kind: SagaStep['kind'], params: object, now: Date): SagaStep {
  const stepId = uuidv7();
  return {
    stepId,
    contractId,
    kind,
    status: 'pending',
    params: params as Record<string, unknown>,
    walletKey: walletKey(contractId, kind, stepId),
    attempts: 0,
    lastError: null,
    lastFailureDefinite: false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The contract lifecycle (contracts, offers, results, verification, disputes): validation and
 * rules from src/domain, state in one transaction that locks the contract row, events in the same
 * transaction, wallet calls through the saga. Listings and verifiers: ListingsService.
 */
export class MarketService {
  constructor(private readonly ctx: MarketContext) {}

  private get pool() {
    return this.ctx.pool;
  }

  private tx<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    return inTransaction(this.ctx, fn);
  }

  /** The contract as answered to callers: a resale carries its lineage review (no query otherwise). */
  private async contractOr404(id: string): Promise<Contract> {
    const c = await repo.getContract(this.pool, id);
    if (!c) throw notFound('contract', id);
    return withResaleReview(this.pool, c);
  }

  /** Runs the contract's pending steps first; 503 wallet_unavailable when one is left without an answer. */
  private async drainOrFail(contractId: string): Promise<void> {
    const { reachable } = await drain(this.ctx, contractId);
    if (!reachable) throw walletUnavailable();
  }

  /** A step run inside a request whose outcome the caller must see (award, resolve). */
  private throwUnlessDone(outcome: StepOutcome): void {
    if (outcome.status === 'failed') throw asDomainError(outcome.error);
    if (outcome.status === 'pending') throw outcome.definite ? asDomainError(outcome.error) : walletUnavailable();
  }

  /** settle/release in a request: a failure is logged and left to the recovery worker. */
  private async runQuietly(stepId: string, caller: Caller): Promise<void> {
    try {
      await runStep(this.ctx, stepId, caller);
    } catch (err) {
      this.ctx.logger.warn({ err: (err as Error).message, step_id: stepId }, 'saga step left to recovery');
    }
  }

  // ---- contracts ----

  createContract(req: marketV1.CreateContractRequest, caller: Caller): Promise<marketV1.CreateContractResponse> {
    return idempotent(this.ctx, caller, 'CreateContract', req, marketV1.CreateContractRequest.toJSON(req), marketV1.CreateContractResponse, async () => {
      await enforceIntegrity(this.pool, 'new_contract');
      const now = this.ctx.clock();
      const buyerId = resolveParty(caller, 'buyer_id', req.buyerId);
      const title = v.text('title', req.title, 1, 200);
      // Template defaults fill what the request left out (catalog); then the usual field rules.
      const defaults = await resolveContractDefaults(
        this.pool,
        {
          ...req,
          verificationMode: () =>
            req.verificationMode === marketV1.VerificationMode.VERIFICATION_MODE_UNSPECIFIED ? null : map.requiredEnum(map.verificationMode, req.verificationMode, 'verification_mode'),
        },
        now,
      );
      const description = v.text('description', defaults.description, 0, 20000);
      const tags = v.tags(defaults.tags);
      const budget = v.money('budget', defaults.budget);
      const deadline = v.futureDeadline(defaults.deadline, now);
      const acceptanceCriteria = v.text('acceptance_criteria', defaults.acceptanceCriteria, 1, 20000);
      const mode = defaults.verificationMode ?? 'buyer';
      const verifierId = req.verifierId === undefined || req.verifierId === '' ? null : req.verifierId;
      if (mode === 'verifier' && verifierId === null) throw errors.invalidArgument('verifier_required', 'verification_mode verifier needs a verifier_id');
      if (mode !== 'verifier' && verifierId !== null) throw errors.invalidArgument('verifier_not_allowed', `verifier_id is only for verification_mode verifier`);
      if (verifierId !== null && verifierId === buyerId) throw errors.invalidArgument('verifier_is_buyer', 'the buyer cannot be the verifier');
      const buyer = await this.ctx.agents.active(buyerId);
      if (verifierId !== null && !(await repo.getVerifier(this.pool, verifierId))) throw notFound('verifier', verifierId);
      const listingId = req.listingId === undefined || req.listingId === '' ? null : req.listingId;
      if (listingId !== null && !(await repo.getListing(this.pool, listingId))) throw notFound('listing', listingId);
      const resale = await planResale(this.pool, req.resaleOf, buyerId, this.ctx.resaleMaxDepth ?? DEFAULT_RESALE_MAX_DEPTH);
      const contract: Contract = {
        contractId: newId('ctr'),
        buyerId,
        title,
        description,
        tags,
        budget: budget.amount,
        currency: budget.currency,
        deadline,
        acceptanceCriteria,
        verificationMode: mode,
        verifierId,
        listingId,
        status: 'open',
        sellerId: null,
        awardedOfferId: null,
        price: null,
        holdId: null,
        escrowStatus: 'none',
        receiptId: null,
        disputedFrom: null,
        cancelReason: null,
        createdAt: now,
        updatedAt: now,
        awardedAt: null,
        settledAt: null,
        buyerPrivate: req.buyerPrivate === true,
        buyerAlias: null,
        buyerAliasGeneration: 0,
        templateId: defaults.templateId,
        workProductTemplateId: defaults.workProductTemplateId,
        fixtureId: defaults.fixtureId,
        resaleOf: resale?.resaleOf ?? null,
        sandbox: isSandboxContract(this.ctx.exchangeEnv, buyer.level === identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED),
        correctedAt: null,
        correctionReceiptId: null,
        correctionReason: null,
      };
      const inserted = await this.tx(async (client) => {
        await repo.insertContract(client, contract);
        // A resale waits for the operator's lineage review, created with it.
        const review = resale ? await recordResaleReview(client, contract, resale, caller, now) : null;
        const c: Contract = review ? { ...contract, resaleReview: review } : contract;
        await events.contract(client, 'created', c, caller);
        return c;
      });
      // After the commit: the alias of a private buyer (null on failure, minted later).
      const created = inserted.buyerPrivate ? await this.withBuyerAlias(inserted, caller.traceId) : inserted;
      return { contract: map.toProtoContract(created), idempotentReplayed: false };
    });
  }

  /**
   * A private contract's buyer alias, minted through identity when not stored yet (after create, or
   * on a read after identity was unreachable). The contract unchanged when minting fails again.
   */
  private async withBuyerAlias(c: Contract, traceId: string | null): Promise<Contract> {
    if (!c.buyerPrivate || c.buyerAlias !== null || !this.ctx.aliases) return c;
    const alias = await this.ctx.aliases.mint(c.contractId, c.buyerId, traceId);
    if (alias === null) return c;
    await repo.setBuyerAlias(this.pool, c.contractId, alias);
    return { ...c, buyerAlias: alias };
  }

  async getContract(req: marketV1.GetContractRequest, caller: Caller): Promise<marketV1.GetContractResponse> {
    const c = await this.withBuyerAlias(await this.contractOr404(req.contractId), caller.traceId);
    return { contract: map.toProtoContract(contractView(c, caller)) };
  }

  async listContracts(req: marketV1.ListContractsRequest, caller: Caller): Promise<marketV1.ListContractsResponse> {
    const q = pageQuery(req.page);
    const status = map.optionalEnum(map.contractStatus, req.status, 'status');
    const buyerId = req.buyerId || undefined;
    // The buyer_id filter never finds a private contract for a viewer who is not its party.
    const hidePrivateBuyerFrom = buyerId === undefined ? undefined : privateFilterViewer(caller);
    const page = await repo.listContracts(this.pool, { buyerId, sellerId: req.sellerId || undefined, status, hidePrivateBuyerFrom }, q);
    const reviewed = await withResaleReviews(this.pool, page.data);
    const contracts = await Promise.all(reviewed.map((c) => this.withBuyerAlias(c, caller.traceId)));
    return { contracts: contracts.map((c) => map.toProtoContract(contractView(c, caller))), page: { nextCursor: page.nextCursor ?? '' } };
  }

  cancelContract(req: marketV1.CancelContractRequest, caller: Caller): Promise<marketV1.CancelContractResponse> {
    return idempotent(this.ctx, caller, 'CancelContract', req, marketV1.CancelContractRequest.toJSON(req), marketV1.CancelContractResponse, async () => {
      const reason = v.optionalText('reason', req.reason, 20000);
      await this.contractOr404(req.contractId);
      await this.drainOrFail(req.contractId);
      let release: SagaStep | null = null;
      const cancelled = await this.tx(async (client) => {
        const c = await repo.lockContract(client, req.contractId);
        if (!c) throw notFound('contract', req.contractId);
        transition('contract', c.status, 'cancelled');
        const agent = actingAgent(caller);
        const allowed = isOperator(caller) ? true : c.status === 'open' ? agent === c.buyerId : agent === c.sellerId;
        if (!allowed) {
          throw errors.permissionDenied('not_allowed_to_cancel', c.status === 'open' ? 'only the buyer or an operator may cancel an open contract' : 'only the awarded seller or an operator may cancel an awarded contract');
        }
        if (await repo.hasPendingStep(client, c.contractId, 'award')) throw awardInProgress(c);
        const now = this.ctx.clock();
        const after: Contract = { ...c, status: 'cancelled', cancelReason: reason, updatedAt: now };
        await repo.saveContract(client, after);
        await this.rejectSubmittedOffers(client, c.contractId, now, caller);
        if (c.status === 'awarded' && c.escrowStatus === 'held') {
          const params: ReleaseParams = { buyerId: c.buyerId, holdId: must(c.holdId, 'hold_id'), reason: 'cancelled' };
          release = newStep(c.contractId, 'release', params, now);
          await repo.insertStep(client, release);
        }
        await events.contract(client, 'cancelled', after, caller);
        return after;
      });
      if (release) await this.runQuietly((release as SagaStep).stepId, caller);
      const latest = (await repo.getContract(this.pool, cancelled.contractId)) ?? cancelled;
      return { contract: map.toProtoContract(latest), idempotentReplayed: false };
    });
  }

  private async rejectSubmittedOffers(client: pg.PoolClient, contractId: string, now: Date, caller: Caller): Promise<void> {
    for (const o of await repo.submittedOffers(client, contractId)) {
      await repo.setOfferStatus(client, o.offerId, 'rejected', now);
      await events.offer(client, 'rejected', { ...o, status: 'rejected', updatedAt: now }, caller);
    }
  }

  // ---- offers ----

  submitOffer(req: marketV1.SubmitOfferRequest, caller: Caller): Promise<marketV1.SubmitOfferResponse> {
    return idempotent(this.ctx, caller, 'SubmitOffer', req, marketV1.SubmitOfferRequest.toJSON(req), marketV1.SubmitOfferResponse, async () => {
      const now = this.ctx.clock();
      const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
      const price = v.money('price', req.price);
      const eta = v.futureEta(req.eta, now);
      const terms = v.text('terms', req.terms, 0, 20000);
      await this.contractOr404(req.contractId);
      await this.ctx.agents.active(sellerId);
      const offer = await this.tx(async (client) => {
        const c = await repo.lockContract(client, req.contractId);
        if (!c) throw notFound('contract', req.contractId);
        if (c.status !== 'open') throw errors.invalidState('contract', c.status, 'open');
        checkBeforeDeadline(c, now);
        v.etaWithinDeadline(eta, c.deadline);
        if (sellerId === c.buyerId) throw errors.permissionDenied('self_dealing', 'the buyer cannot make an offer on its own contract');
        if (sellerId === c.verifierId) throw errors.permissionDenied('conflict_of_interest', "the contract's verifier cannot make an offer on it");
        await checkResaleOffer(client, c, sellerId);
        if (price.currency !== c.currency) {
          throw errors.invalidArgument('currency_mismatch', `price currency ${price.currency} is not the budget currency ${c.currency}`, { field: 'price' });
        }
        if (price.amount > c.budget) throw errors.invalidArgument('price_exceeds_budget', 'price exceeds the contract budget', { field: 'price' });
        const o: Offer = {
          offerId: newId('ofr'),
          contractId: c.contractId,
          sellerId,
          price: price.amount,
          currency: price.currency,
          eta,
          terms,
          status: 'submitted',
          createdAt: now,
          updatedAt: now,
        };
        try {
          await repo.insertOffer(client, o);
        } catch (err) {
          if (isUniqueViolation(err, 'offers_one_submitted_per_seller')) {
            throw errors.failedPrecondition('offer_exists', 'this seller already has a submitted offer on the contract', { seller_id: sellerId });
          }
          throw err;
        }
        await events.offer(client, 'submitted', o, caller);
        return o;
      });
      return { offer: map.toProtoOffer(offer), idempotentReplayed: false };
    });
  }

  async getOffer(req: marketV1.GetOfferRequest): Promise<marketV1.GetOfferResponse> {
    const o = await repo.getOffer(this.pool, req.offerId);
    if (!o) throw notFound('offer', req.offerId);
    return { offer: map.toProtoOffer(o) };
  }

  async listOffers(req: marketV1.ListOffersRequest): Promise<marketV1.ListOffersResponse> {
    const q = pageQuery(req.page);
    const status = map.optionalEnum(map.offerStatus, req.status, 'status');
    await this.contractOr404(req.contractId);
    const page = await repo.listOffers(this.pool, req.contractId, { sellerId: req.sellerId || undefined, status }, q);
    return { offers: page.data.map(map.toProtoOffer), page: { nextCursor: page.nextCursor ?? '' } };
  }

  withdrawOffer(req: marketV1.WithdrawOfferRequest, caller: Caller): Promise<marketV1.WithdrawOfferResponse> {
    return idempotent(this.ctx, caller, 'WithdrawOffer', req, marketV1.WithdrawOfferRequest.toJSON(req), marketV1.WithdrawOfferResponse, async () => {
      const found = await repo.getOffer(this.pool, req.offerId);
      if (!found) throw notFound('offer', req.offerId);
      const offer = await this.tx(async (client) => {
        await repo.lockContract(client, found.contractId);
        const o = must(await repo.getOffer(client, req.offerId), 'offer');
        const agent = actingAgent(caller);
        if (!isOperator(caller) && agent !== o.sellerId) {
          throw errors.permissionDenied('not_offer_seller', 'only the offer seller or an operator may withdraw it');
        }
        transition('offer', o.status, 'withdrawn');
        if (await repo.hasPendingStep(client, o.contractId, 'award')) {
          throw errors.failedPrecondition('invalid_state', 'an award of this contract is in progress', { current: o.status, wanted: 'withdrawn' });
        }
        const now = this.ctx.clock();
        const after: Offer = { ...o, status: 'withdrawn', updatedAt: now };
        await repo.setOfferStatus(client, o.offerId, 'withdrawn', now);
        await events.offer(client, 'withdrawn', after, caller);
        return after;
      });
      return { offer: map.toProtoOffer(offer), idempotentReplayed: false };
    });
  }

  awardOffer(req: marketV1.AwardOfferRequest, caller: Caller): Promise<marketV1.AwardOfferResponse> {
    return idempotent(this.ctx, caller, 'AwardOffer', req, marketV1.AwardOfferRequest.toJSON(req), marketV1.AwardOfferResponse, async () => {
      requireOperator(caller);
      await enforceIntegrity(this.pool, 'award');
      await this.contractOr404(req.contractId);
      await this.drainOrFail(req.contractId);
      const step = await this.tx(async (client) => {
        const c = await repo.lockContract(client, req.contractId);
        if (!c) throw notFound('contract', req.contractId);
        transition('contract', c.status, 'awarded');
        checkBeforeDeadline(c, this.ctx.clock());
        await checkResaleAward(client, c);
        const o = await repo.getOffer(client, req.offerId);
        if (!o || o.contractId !== c.contractId) throw notFound('offer', req.offerId);
        transition('offer', o.status, 'awarded');
        if (await repo.hasPendingStep(client, c.contractId, 'award')) throw awardInProgress(c);
        const params: AwardParams = { offerId: o.offerId, buyerId: c.buyerId, sellerId: o.sellerId, price: o.price.toString(), currency: o.currency };
        const s = newStep(c.contractId, 'award', params, this.ctx.clock());
        try {
          await repo.insertStep(client, s);
        } catch (err) {
          if (isUniqueViolation(err, 'saga_steps_one_pending_award')) throw awardInProgress(c);
          throw err;
        }
        return s;
      });
      this.throwUnlessDone(await runStep(this.ctx, step.stepId, caller));
      const contract = await this.contractOr404(req.contractId);
      const offer = must(await repo.getOffer(this.pool, req.offerId), 'offer');
      return { contract: map.toProtoContract(contract), offer: map.toProtoOffer(offer), idempotentReplayed: false };
    });
  }

  // ---- results ----

  submitResult(req: marketV1.SubmitResultRequest, caller: Caller): Promise<marketV1.SubmitResultResponse> {
    return idempotent(this.ctx, caller, 'SubmitResult', req, marketV1.SubmitResultRequest.toJSON(req), marketV1.SubmitResultResponse, async () => {
      const sellerId = resolveParty(caller, 'seller_id', req.sellerId);
      const summary = v.text('summary', req.summary, 1, 20000);
      const artifactRefs = v.artifactRefs(req.artifactRefs);
      const payloadJson = v.payloadJson(req.payloadJson);
      await this.contractOr404(req.contractId);
      await this.ctx.agents.active(sellerId);
      let settle: SagaStep | null = null;
      const result = await this.tx(async (client) => {
        const c = await repo.lockContract(client, req.contractId);
        if (!c) throw notFound('contract', req.contractId);
        if (c.sellerId === null || c.sellerId !== sellerId) throw errors.permissionDenied('not_awarded_seller', 'only the awarded seller may submit a result');
        const now = this.ctx.clock();
        let contract: Contract = { ...c, status: transition('contract', c.status, 'delivered'), updatedAt: now };
        let r: Result = {
          resultId: newId('res'),
          contractId: c.contractId,
          sellerId,
          summary,
          artifactRefs,
          payloadJson,
          status: 'submitted',
          createdAt: now,
          updatedAt: now,
        };
        await repo.insertResult(client, r);
        await events.result(client, 'submitted', r, caller);
        await events.contract(client, 'delivered', contract, caller);
        if (c.verificationMode === 'auto') {
          await enforceIntegrity(client, 'settle'); // refused → the whole delivery rolls back
          r = { ...r, status: transition('result', r.status, 'accepted') };
          await repo.setResultStatus(client, r.resultId, r.status, now);
          contract = { ...contract, status: transition('contract', contract.status, 'accepted') };
          settle = await this.insertSettleStep(client, contract, now);
          await events.result(client, 'accepted', r, caller);
          await events.contract(client, 'accepted', contract, caller);
        }
        await repo.saveContract(client, contract);
        return r;
      });
      if (settle) await this.runQuietly((settle as SagaStep).stepId, caller);
      const contract = await this.contractOr404(req.contractId);
      return { result: map.toProtoResult(result), contract: map.toProtoContract(contract), idempotentReplayed: false };
    });
  }

  private async insertSettleStep(client: pg.PoolClient, c: Contract, now: Date): Promise<SagaStep> {
    const price = must(c.price, 'price');
    const params: SettleParams = { buyerId: c.buyerId, sellerId: must(c.sellerId, 'seller_id'), holdId: must(c.holdId, 'hold_id'), amount: price.toString(), fee: feeOf(price, this.ctx.feeBps).toString() };
    const step = newStep(c.contractId, 'settle', params, now);
    await repo.insertStep(client, step);
    return step;
  }

  async getResult(req: marketV1.GetResultRequest): Promise<marketV1.GetResultResponse> {
    const r = await repo.getResult(this.pool, req.resultId);
    if (!r) throw notFound('result', req.resultId);
    return { result: map.toProtoResult(r) };
  }

  async listResults(req: marketV1.ListResultsRequest): Promise<marketV1.ListResultsResponse> {
    const q = pageQuery(req.page);
    const status = map.optionalEnum(map.resultStatus, req.status, 'status');
    await this.contractOr404(req.contractId);
    const page = await repo.listResults(this.pool, req.contractId, { sellerId: req.sellerId || undefined, status }, q);
    return { results: page.data.map(map.toProtoResult), page: { nextCursor: page.nextCursor ?? '' } };
  }

  // ---- verification ----

  submitVerification(req: marketV1.SubmitVerificationRequest, caller: Caller): Promise<marketV1.SubmitVerificationResponse> {
    return idempotent(this.ctx, caller, 'SubmitVerification', req, marketV1.SubmitVerificationRequest.toJSON(req), marketV1.SubmitVerificationResponse, async () => {
      const verifierId = resolveParty(caller, 'verifier_id', req.verifierId);
      const verdict = map.requiredEnum(map.verdict, req.verdict, 'verdict');
      const score = checkScore(req.score);
      const checks = checkChecks(req.checks.map((c) => (c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail })));
      if (req.resultId === '') throw errors.invalidArgument('validation_failed', 'result_id is required', { field: 'result_id' });
      const c = await this.contractOr404(req.contractId);
      if (c.verificationMode === 'auto') {
        throw errors.failedPrecondition('invalid_state', 'a contract in verification mode auto settles on delivery; it takes no reports', {
          current: c.status,
          wanted: 'accepted',
        });
      }
      const signer = c.verificationMode === 'verifier' ? c.verifierId : c.buyerId;
      if (verifierId !== signer) throw errors.permissionDenied('not_contract_verifier', `${verifierId} does not verify this contract`);
      await this.ctx.agents.active(verifierId);
      const target = await repo.getResult(this.pool, req.resultId);
      if (!target || target.contractId !== c.contractId) throw notFound('result', req.resultId);
      const message = Buffer.from(reportSigningPayload({ verifierId, resultId: req.resultId, verdict, score, checks }), 'utf8');
      if (!SIGNATURE_B64.test(req.signature) || (await this.ctx.agents.verifySignature(verifierId, message, req.signature)) === null) {
        throw errors.invalidArgument('report_signature_invalid', 'the signature does not verify with a key of verifier_id');
      }
      if (verdict === 'pass') await enforceIntegrity(this.pool, 'settle');
      let settle: SagaStep | null = null;
      const report = await this.tx(async (client) => {
        const locked = must(await repo.lockContract(client, c.contractId), 'contract');
        const wanted = verdict === 'pass' ? 'accepted' : 'awarded';
        transition('contract', locked.status, wanted);
        const result = must(await repo.getResult(client, req.resultId), 'result');
        const latest = await repo.latestResult(client, c.contractId);
        if (result.status !== 'submitted' || latest?.resultId !== result.resultId) {
          throw errors.invalidState('result', result.status === 'submitted' ? 'superseded' : result.status, verdict === 'pass' ? 'accepted' : 'rejected');
        }
        const now = this.ctx.clock();
        const rep: VerificationReport = {
          reportId: newId('vrp'),
          contractId: c.contractId,
          resultId: result.resultId,
          verifierId,
          verdict,
          score,
          checks,
          signature: req.signature,
          resultCreatedAt: result.createdAt,
          createdAt: now,
        };
        await repo.insertReport(client, rep);
        await events.verification(client, rep, caller);
        if (verdict === 'pass') {
          const r = { ...result, status: transition('result', result.status, 'accepted'), updatedAt: now };
          const after: Contract = { ...locked, status: 'accepted', updatedAt: now };
          await repo.setResultStatus(client, r.resultId, r.status, now);
          await repo.saveContract(client, after);
          settle = await this.insertSettleStep(client, after, now);
          await events.result(client, 'accepted', r, caller);
          await events.contract(client, 'accepted', after, caller);
        } else {
          const r = { ...result, status: transition('result', result.status, 'rejected'), updatedAt: now };
          const after: Contract = { ...locked, status: 'awarded', updatedAt: now };
          await repo.setResultStatus(client, r.resultId, r.status, now);
          await repo.saveContract(client, after);
          await events.result(client, 'rejected', r, caller);
          await events.contract(client, 'reopened', after, caller);
        }
        return rep;
      });
      if (settle) await this.runQuietly((settle as SagaStep).stepId, caller);
      const contract = await this.contractOr404(c.contractId);
      return { report: map.toProtoReport(report), contract: map.toProtoContract(contract), idempotentReplayed: false };
    });
  }

  async getLatestVerification(req: marketV1.GetLatestVerificationRequest): Promise<marketV1.GetLatestVerificationResponse> {
    await this.contractOr404(req.contractId);
    const r = await repo.latestReport(this.pool, req.contractId);
    if (!r) throw errors.notFound('verification', req.contractId);
    return { report: map.toProtoReport(r) };
  }

  async listVerificationReports(req: marketV1.ListVerificationReportsRequest): Promise<marketV1.ListVerificationReportsResponse> {
    await this.contractOr404(req.contractId);
    const page = await repo.listReports(this.pool, req.contractId, pageQuery(req.page));
    return { reports: page.data.map(map.toProtoReport), page: { nextCursor: page.nextCursor ?? '' } };
  }

  async getVerificationMetrics(req: marketV1.GetVerificationMetricsRequest): Promise<marketV1.GetVerificationMetricsResponse> {
    const window = map.optionalEnum(map.metricsWindow, req.window, 'window') ?? 'all';
    const m = verificationMetrics(await repo.reportOutcomes(this.pool, windowStart(window, this.ctx.clock())));
    return {
      window: map.metricsWindow.toProto(window),
      reports: String(m.reports),
      passed: String(m.passed),
      failed: String(m.failed),
      passRate: m.passRate ?? undefined,
      medianLatencyMs: m.medianLatencyMs === null ? undefined : String(m.medianLatencyMs),
    };
  }

  // ---- disputes ----

  openDispute(req: marketV1.OpenDisputeRequest, caller: Caller): Promise<marketV1.OpenDisputeResponse> {
    return idempotent(this.ctx, caller, 'OpenDispute', req, marketV1.OpenDisputeRequest.toJSON(req), marketV1.OpenDisputeResponse, async () => {
      const openedBy = resolveParty(caller, 'opened_by', req.openedBy);
      const reason = v.text('reason', req.reason, 1, 20000);
      const evidenceRefs = v.refs('evidence_refs', req.evidenceRefs, 100, 500);
      const c0 = await this.contractOr404(req.contractId);
      if (openedBy !== c0.buyerId && openedBy !== c0.sellerId) {
        throw errors.permissionDenied('not_contract_party', 'only the buyer or the awarded seller may open a dispute');
      }
      await this.ctx.agents.active(openedBy);
      let opened: { dispute: Dispute; contract: Contract } | null = null;
      for (let round = 0; round < DISPUTE_DRAIN_ROUNDS && opened === null; round++) {
        await this.drainOrFail(req.contractId);
        opened = await this.tx(async (client) => {
          const c = must(await repo.lockContract(client, req.contractId), 'contract');
          transition('contract', c.status, 'disputed');
          const now = this.ctx.clock();
          if (c.status === 'settled') checkDisputeWindow(c.settledAt, now, this.ctx.disputeWindowDays);
          // Settlement pauses while the dispute is open: a settle step the wallet refused for good
          // (kill switch) is dropped. Any other pending step (one committed after our drain, maybe by
          // a replica that crashed after the wallet executed it, or one whose last run got no answer)
          // may already have moved money: leave it, drain again and retry (null = nothing written).
          const pending = await repo.pendingSteps(client, c.contractId);
          if (!pending.every(isSupersedable)) return null;
          for (const step of pending) await repo.updateStep(client, step.stepId, 'superseded', step.attempts, step.lastError, step.lastFailureDefinite, now);
          const d: Dispute = {
            disputeId: newId('dsp'),
            contractId: c.contractId,
            openedBy,
            reason,
            evidenceRefs,
            status: 'open',
            outcome: null,
            sellerShareBps: null,
            rationale: null,
            resolvedBy: null,
            resolvedAt: null,
            receiptId: null,
            createdAt: now,
            updatedAt: now,
          };
          const after: Contract = { ...c, status: 'disputed', disputedFrom: c.status, updatedAt: now };
          try {
            await repo.insertDispute(client, d);
          } catch (err) {
            if (isUniqueViolation(err, 'disputes_one_open_per_contract')) throw errors.invalidState('contract', 'disputed', 'disputed');
            throw err;
          }
          await repo.saveContract(client, after);
          await events.dispute(client, 'opened', d, caller);
          await events.contract(client, 'disputed', after, caller);
          return { dispute: d, contract: after };
        });
      }
      if (opened === null) throw walletUnavailable();
      const { dispute, contract } = opened;
      return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
    });
  }

  async getDispute(req: marketV1.GetDisputeRequest): Promise<marketV1.GetDisputeResponse> {
    const d = await repo.getDispute(this.pool, req.disputeId);
    if (!d) throw notFound('dispute', req.disputeId);
    return { dispute: map.toProtoDispute(d) };
  }

  async listDisputes(req: marketV1.ListDisputesRequest): Promise<marketV1.ListDisputesResponse> {
    const q = pageQuery(req.page);
    const status = map.optionalEnum(map.disputeStatus, req.status, 'status');
    await this.contractOr404(req.contractId);
    const page = await repo.listDisputes(this.pool, req.contractId, { openedBy: req.openedBy || undefined, status }, q);
    return { disputes: page.data.map(map.toProtoDispute), page: { nextCursor: page.nextCursor ?? '' } };
  }

  resolveDispute(req: marketV1.ResolveDisputeRequest, caller: Caller): Promise<marketV1.ResolveDisputeResponse> {
    return idempotent(this.ctx, caller, 'ResolveDispute', req, marketV1.ResolveDisputeRequest.toJSON(req), marketV1.ResolveDisputeResponse, async () => {
      requireOperator(caller);
      const outcome = map.requiredEnum(map.disputeOutcome, req.outcome, 'outcome');
      const sellerShareBps = v.sellerShareBps(outcome, req.sellerShareBps);
      const rationale = v.text('rationale', req.rationale, 1, 20000);
      const d0 = await repo.getDispute(this.pool, req.disputeId);
      if (!d0) throw notFound('dispute', req.disputeId);
      await this.drainOrFail(d0.contractId);
      const step = await this.tx(async (client) => {
        const c = must(await repo.lockContract(client, d0.contractId), 'contract');
        const d = must(await repo.getDispute(client, req.disputeId), 'dispute');
        transition('dispute', d.status, 'resolved');
        if (await repo.hasPendingStep(client, c.contractId, 'resolve')) {
          throw errors.failedPrecondition('invalid_state', 'a resolution of this dispute is in progress', { current: d.status, wanted: 'resolved' });
        }
        const plan = resolutionPlan({ escrowHeld: c.escrowStatus === 'held', price: must(c.price, 'price'), feeBps: this.ctx.feeBps, outcome, sellerShareBps });
        transition('contract', c.status, plan.contractStatus);
        // Paying the seller out of escrow is a settlement; refunds and post-settlement transfers back are not.
        if (plan.wallet === 'settle') await enforceIntegrity(client, 'settle');
        const params: ResolveParams = {
          disputeId: d.disputeId,
          buyerId: c.buyerId,
          sellerId: must(c.sellerId, 'seller_id'),
          holdId: c.holdId,
          currency: c.currency,
          outcome,
          sellerShareBps,
          rationale,
          resolvedBy: must(caller.actor, 'actor'),
          plan,
        };
        const s = newStep(c.contractId, 'resolve', params, this.ctx.clock());
        await repo.insertStep(client, s);
        return s;
      });
      this.throwUnlessDone(await runStep(this.ctx, step.stepId, caller));
      const dispute = must(await repo.getDispute(this.pool, req.disputeId), 'dispute');
      const contract = await this.contractOr404(d0.contractId);
      return { dispute: map.toProtoDispute(dispute), contract: map.toProtoContract(contract), idempotentReplayed: false };
    });
  }
}

function awardInProgress(c: Contract) {
  return errors.failedPrecondition('invalid_state', 'award in progress', { current: c.status, wanted: 'awarded' });
}
