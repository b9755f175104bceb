import { must } from '../domain/invariant';
import { errors, newId } from '@exchange/platform';
import * as contractsRepo from './contracts.repo';
import * as stepsRepo from '../data/saga-steps.repo';
import * as listingsRepo from '../listings/listings.repo';
import type { Page } from '../data/repo-kit';
import { isSandboxUnverified } from '../clients/identity.client';
import { actingAgent, isOperator, resolveParty, type Caller } from '../domain/caller';
import type { Contract, ContractStatus, SagaStep } from '../domain/model';
import type { ReleaseParams } from '../domain/steps';
import { contractView, privateFilterViewer } from '../domain/privacy';
import { transition } from '../domain/states';
import * as v from '../domain/validation';
import { inputRefs, labels } from '../domain/labels';
import { events } from '../events/market.events';
import { notFound, pageQuery, type PageRequest } from '../service/service-kit';
import { enforceIntegrity } from '../integrity/gate.service';
import { DEFAULT_RESALE_MAX_DEPTH } from '../governance/resale';
import { planResale, recordResaleReview, withResaleReviews } from '../governance/resale-hooks.service';
import { resolveContractDefaults, type ContractRequestFields } from '../catalog/contract-defaults.service';
import { isSandboxContract } from '../catalog/inheritance';
import { ContractUseCases, newStep, awardInProgress, type ContractKitDeps } from '../service/contract-kit';
import type { MarketRuntime } from '../service/runtime';

/** CreateContract's fields (the verification mode parsed lazily, after an unknown template is refused). */
export interface NewContract extends ContractRequestFields {
  buyerId: string;
  title: string;
  verifierId?: string;
  listingId?: string;
  buyerPrivate: boolean;
  resaleOf?: string;
  labels?: Record<string, string>;
  inputRefs?: string[];
}

export interface ContractQuery {
  buyerId?: string;
  sellerId?: string;
  /** Parsed after the page (a bad cursor is reported first), by the mapper. */
  status: () => ContractStatus | undefined;
  page?: PageRequest;
}

/** The contract kit's deps plus what contracts use cases read. */
export type ContractsDeps = ContractKitDeps & Pick<MarketRuntime, 'agents' | 'exchangeEnv' | 'resaleMaxDepth'>;

/** Contracts: create (template defaults, resale lineage), read (privacy view, buyer alias) and cancel (releasing escrow). */
export class ContractsService extends ContractUseCases<ContractsDeps> {
  async createContract(req: NewContract, caller: Caller): Promise<Contract> {
    await enforceIntegrity(this.pool, 'new_contract');
    const now = this.ctx.clock();
    const buyerId = resolveParty(caller, 'buyer_id', req.buyerId);
    const title = v.text('title', req.title, 1, 200);
    // Template defaults fill what the request left out (catalog); then the usual field rules.
    const defaults = await resolveContractDefaults(this.pool, req, now);
    const description = v.text('description', defaults.description, 0, 20000);
    const tags = v.tags(defaults.tags);
    const budget = v.money('budget', defaults.budget);
    const deadline = v.futureDeadline(defaults.deadline, now);
    const acceptanceCriteria = v.text('acceptance_criteria', defaults.acceptanceCriteria, 1, 20000);
    // The request's own, never a template's: labels name this contract.
    const contractLabels = labels(req.labels);
    const contractInputRefs = inputRefs(req.inputRefs);
    const mode = defaults.verificationMode ?? 'buyer';
    const verifierId = req.verifierId === undefined || req.verifierId === '' ? null : req.verifierId;
    if (mode === 'verifier' && verifierId === null) throw errors.invalidArgument('verifier_required', 'verification_mode verifier needs a verifier_id');
    if (mode !== 'verifier' && verifierId !== null) throw errors.invalidArgument('verifier_not_allowed', `verifier_id is only for verification_mode verifier`);
    if (verifierId !== null && verifierId === buyerId) throw errors.invalidArgument('verifier_is_buyer', 'the buyer cannot be the verifier');
    const buyer = await this.ctx.agents.active(buyerId);
    if (verifierId !== null && !(await listingsRepo.getVerifier(this.pool, verifierId))) throw notFound('verifier', verifierId);
    const listingId = req.listingId === undefined || req.listingId === '' ? null : req.listingId;
    if (listingId !== null && !(await listingsRepo.getListing(this.pool, listingId))) throw notFound('listing', listingId);
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
      sandbox: isSandboxContract(this.ctx.exchangeEnv, isSandboxUnverified(buyer)),
      correctedAt: null,
      correctionReceiptId: null,
      correctionReason: null,
      labels: contractLabels,
      inputRefs: contractInputRefs,
    };
    const inserted = await this.tx(async (client) => {
      await contractsRepo.insertContract(client, contract);
      // A resale waits for the operator's lineage review, created with it.
      const review = resale ? await recordResaleReview(client, contract, resale, caller, now) : null;
      const c: Contract = review ? { ...contract, resaleReview: review } : contract;
      await events.contract(client, 'created', c, caller);
      return c;
    });
    // After the commit: the alias of a private buyer (null on failure, minted later).
    const created = inserted.buyerPrivate ? await this.withBuyerAlias(inserted, caller.traceId) : inserted;
    return created;
  }

  /** The contract as this caller may see it (privacy view). */
  async getContract(contractId: string, caller: Caller): Promise<Contract> {
    const c = await this.withBuyerAlias(await this.contractOr404(contractId), caller.traceId);
    return contractView(c, caller);
  }

  async listContracts(req: ContractQuery, caller: Caller): Promise<Page<Contract>> {
    const q = pageQuery(req.page);
    const status = req.status();
    const buyerId = req.buyerId || undefined;
    // The buyer_id filter never finds a private contract for a viewer who is not its party.
    const hidePrivateBuyerFrom = buyerId === undefined ? undefined : privateFilterViewer(caller);
    const page = await contractsRepo.listContracts(this.pool, { buyerId, sellerId: req.sellerId || undefined, status, hidePrivateBuyerFrom }, q);
    const reviewed = await withResaleReviews(this.pool, page.data);
    const contracts = await Promise.all(reviewed.map((c) => this.withBuyerAlias(c, caller.traceId)));
    return { data: contracts.map((c) => contractView(c, caller)), nextCursor: page.nextCursor };
  }

  async cancelContract(req: { contractId: string; reason?: string }, caller: Caller): Promise<Contract> {
    const reason = v.optionalText('reason', req.reason, 20000);
    await this.contractOr404(req.contractId);
    await this.drainOrFail(req.contractId);
    let release: SagaStep | null = null;
    const cancelled = await this.tx(async (client) => {
      const c = await contractsRepo.lockContract(client, req.contractId);
      if (!c) throw notFound('contract', req.contractId);
      transition('contract', c.status, 'cancelled');
      const agent = actingAgent(caller);
      const allowed = isOperator(caller) ? true : c.status === 'open' ? agent === c.buyerId : agent === c.sellerId;
      if (!allowed) {
        throw errors.permissionDenied('not_allowed_to_cancel', c.status === 'open' ? 'only the buyer or an operator may cancel an open contract' : 'only the awarded seller or an operator may cancel an awarded contract');
      }
      if (await stepsRepo.hasPendingStep(client, c.contractId, 'award')) throw awardInProgress(c);
      const now = this.ctx.clock();
      const after: Contract = { ...c, status: 'cancelled', cancelReason: reason, updatedAt: now };
      await contractsRepo.saveContract(client, after);
      await this.rejectSubmittedOffers(client, c.contractId, now, caller);
      if (c.status === 'awarded' && c.escrowStatus === 'held') {
        const params: ReleaseParams = { buyerId: c.buyerId, holdId: must(c.holdId, 'hold_id'), reason: 'cancelled' };
        release = newStep(c.contractId, 'release', params, now);
        await stepsRepo.insertStep(client, release);
      }
      await events.contract(client, 'cancelled', after, caller);
      return after;
    });
    if (release) await this.runQuietly((release as SagaStep).stepId, caller);
    const latest = (await contractsRepo.getContract(this.pool, cancelled.contractId)) ?? cancelled;
    return latest;
  }
}
