import { errors, formatAmount } from '@exchange/platform';
import * as contractsRepo from '../contracts/contracts.repo';
import { must } from '../domain/invariant';
import { TAG } from '../domain/validation';
import type { MarketRuntime } from '../service/runtime';
import * as repo from './insights.repo';
import { clampBoost, noMatchingSignals, type MatchingSignals } from './matching';
import { priceIndex } from './percentiles';
import {
  decayEpoch,
  jaccard,
  priceFit,
  rankWithExploration,
  recency,
  resolveExplorationRate,
  resolveLimit,
  LOW_HISTORY_BELOW,
  type Candidate,
} from './recommend';
import { computeReputation, REPUTATION_FORMULA } from './reputation';
import { bestListing, referencePrice, sellerTags } from './seller-fit';
import { computeVerifierReputation, VERIFIER_REPUTATION_FORMULA } from './verifier-reputation';
import { DAY_MS, DEFAULT_WINDOW_DAYS, resolveAsOf, resolveIncludeSandbox, resolveWindowDays, windowStartOf, WINDOW_MS, type InsightWindowName } from './window';

/** Seller recency halves every 30 days without activity; an open contract's every 7 days after it was posted. */
export const SELLER_RECENCY_HALF_LIFE_DAYS = 30;
export const CONTRACT_RECENCY_HALF_LIFE_DAYS = 7;

const money = (amount: bigint, currency: string): { amount: string; currency: string } => ({ amount: formatAmount(amount), currency });

// Requests as the service reads them; the window arrives as a name (the mapper refuses an unknown
// or disallowed enum value first). Answers are plain views (money as decimal strings) the handlers
// pass on, the window as a name.
interface AsOfWindow {
  windowDays?: number;
  asOf?: Date;
}

export interface RecommendRequest {
  limit?: number;
  explorationRate?: number;
  requestId: string;
}

export interface MarketWindowRequest {
  window: InsightWindowName;
  asOf?: Date;
  includeSandbox?: boolean;
}

/** Read-only: no transaction, no events. */
export type InsightsDeps = Pick<MarketRuntime, 'pool' | 'clock' | 'agents' | 'exchangeEnv'>;

/** Reputation, recommendations, price index and task tape: read-only views over the market database. */
export class InsightsService {
  constructor(
    private readonly ctx: InsightsDeps,
    private readonly matching: MatchingSignals = noMatchingSignals,
  ) {}

  async getReputation(req: AsOfWindow & { agentId: string; includeReceipts: boolean }) {
    const windowDays = resolveWindowDays(req.windowDays);
    const asOf = resolveAsOf(req.asOf, this.ctx.clock());
    // Frozen agents keep their history: existence is all that is checked (404 agent_not_found).
    await this.ctx.agents.get(req.agentId || '(empty)');
    const start = new Date(asOf.getTime() - windowDays * DAY_MS);
    const facts = (await repo.reputationFacts(this.ctx.pool, [req.agentId], start, asOf)).get(req.agentId);
    const r = computeReputation(must(facts, 'reputation facts'), asOf, windowDays);
    return {
      reputation: {
        agentId: req.agentId,
        score: r.score,
        confidence: r.confidence,
        windowDays,
        asOf,
        components: r.components,
        receiptIds: req.includeReceipts ? r.receiptIds : [],
        volume: r.volume.map((v) => money(v.amount, v.currency)),
        formula: REPUTATION_FORMULA,
      },
    };
  }

  async getVerifierReputation(req: AsOfWindow & { verifierId: string }) {
    const windowDays = resolveWindowDays(req.windowDays);
    const asOf = resolveAsOf(req.asOf, this.ctx.clock());
    if (!req.verifierId || !(await repo.verifierKnown(this.ctx.pool, req.verifierId))) throw errors.notFound('verifier', req.verifierId || '(empty)');
    const start = new Date(asOf.getTime() - windowDays * DAY_MS);
    const r = computeVerifierReputation(await repo.verifierFacts(this.ctx.pool, req.verifierId, start, asOf), asOf, windowDays);
    return {
      reputation: {
        verifierId: req.verifierId,
        score: r.score,
        confidence: r.confidence,
        windowDays,
        asOf,
        reports: r.reports,
        passed: r.passed,
        failed: r.failed,
        disputed: r.disputed,
        agreements: r.agreements,
        agreementRate: r.agreementRate ?? undefined,
        medianLatencyMs: r.medianLatencyMs === null ? undefined : String(r.medianLatencyMs),
        formula: VERIFIER_REPUTATION_FORMULA,
      },
    };
  }

  /** rep-v1 scores as of now over the default window (decayed from `epoch`), for many agents at once. */
  private async reputations(agentIds: readonly string[], now: Date, epoch: Date): Promise<Map<string, number>> {
    const start = new Date(now.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS);
    const facts = await repo.reputationFacts(this.ctx.pool, agentIds, start, now);
    return new Map([...facts].map(([id, f]) => [id, computeReputation(f, now, DEFAULT_WINDOW_DAYS, epoch).score]));
  }

  async recommendSellers(req: RecommendRequest & { contractId: string }, fallbackRequestId: string) {
    const limit = resolveLimit(req.limit);
    const rate = resolveExplorationRate(req.explorationRate);
    const requestId = req.requestId || fallbackRequestId;
    const contract = await contractsRepo.getContract(this.ctx.pool, req.contractId);
    if (!contract) throw errors.notFound('contract', req.contractId || '(empty)');
    const now = this.ctx.clock();
    const epoch = decayEpoch(now);
    const exclude = [contract.buyerId, ...(contract.verifierId ? [contract.verifierId] : [])];
    const ids = await repo.sellerCandidates(this.ctx.pool, exclude);
    const [profiles, reps, boosts] = await Promise.all([
      repo.sellerProfiles(this.ctx.pool, ids),
      this.reputations(ids, now, epoch),
      this.matching.forSellers(contract.contractId, ids),
    ]);
    const candidates: Candidate<{ listingId: string | null }>[] = ids.map((id) => {
      const p = must(profiles.get(id), 'seller profile');
      return {
        id,
        lowHistory: p.settled < LOW_HISTORY_BELOW,
        item: { listingId: bestListing(p.listings, contract.tags, contract.currency)?.listingId ?? null },
        signals: {
          tagMatch: jaccard(contract.tags, sellerTags(p)),
          reputation: reps.get(id) ?? 0.5,
          priceFit: priceFit(referencePrice(p, contract.tags, contract.currency), contract.budget),
          recency: recency(p.lastActivity, epoch, SELLER_RECENCY_HALF_LIFE_DAYS),
          matching: clampBoost(boosts.get(id)),
        },
      };
    });
    const { ranked, explorationSlots } = rankWithExploration(candidates, limit, rate, requestId);
    return {
      sellers: ranked.map((r) => ({
        sellerId: r.id,
        score: r.score,
        rank: r.rank,
        exploration: r.exploration,
        signals: { ...r.signals, matching: r.signals.matching ?? undefined },
        listingId: r.item.listingId ?? undefined,
      })),
      explorationSlots,
      requestId,
    };
  }

  async recommendContracts(req: RecommendRequest & { sellerId: string }, fallbackRequestId: string) {
    const limit = resolveLimit(req.limit);
    const rate = resolveExplorationRate(req.explorationRate);
    const requestId = req.requestId || fallbackRequestId;
    await this.ctx.agents.get(req.sellerId || '(empty)');
    const now = this.ctx.clock();
    const epoch = decayEpoch(now);
    const open = await repo.openContractsFor(this.ctx.pool, req.sellerId, now);
    const [profiles, buyerReps, boosts] = await Promise.all([
      repo.sellerProfiles(this.ctx.pool, [req.sellerId]),
      this.reputations([...new Set(open.map((c) => c.buyerId))], now, epoch),
      this.matching.forContracts(
        req.sellerId,
        open.map((c) => c.contractId),
      ),
    ]);
    const seller = must(profiles.get(req.sellerId), 'seller profile');
    const tags = sellerTags(seller);
    // From the seller's side: its tags against the contract's, its usual price against the budget,
    // the buyer's reputation (will it pay without a fight) and how fresh the contract is.
    const candidates: Candidate<null>[] = open.map((c) => ({
      id: c.contractId,
      lowHistory: c.offers < LOW_HISTORY_BELOW,
      item: null,
      signals: {
        tagMatch: jaccard(c.tags, tags),
        reputation: buyerReps.get(c.buyerId) ?? 0.5,
        priceFit: priceFit(referencePrice(seller, c.tags, c.currency), c.budget),
        recency: recency(c.createdAt, epoch, CONTRACT_RECENCY_HALF_LIFE_DAYS),
        matching: clampBoost(boosts.get(c.contractId)),
      },
    }));
    const { ranked, explorationSlots } = rankWithExploration(candidates, limit, rate, requestId);
    return {
      contracts: ranked.map((r) => ({
        contractId: r.id,
        score: r.score,
        rank: r.rank,
        exploration: r.exploration,
        signals: { ...r.signals, matching: r.signals.matching ?? undefined },
      })),
      explorationSlots,
      requestId,
    };
  }

  async getPriceIndex(req: MarketWindowRequest & { tag?: string }) {
    const window = req.window;
    const asOf = resolveAsOf(req.asOf, this.ctx.clock());
    const tag = req.tag === undefined || req.tag === '' ? null : req.tag;
    if (tag !== null && !TAG.test(tag)) throw errors.invalidArgument('validation_failed', `tag must match ${TAG.source}`, { field: 'tag' });
    const includeSandbox = resolveIncludeSandbox(req.includeSandbox, this.ctx.exchangeEnv);
    const rows = await repo.clearingPrices(this.ctx.pool, { start: windowStartOf(asOf, WINDOW_MS[window]), asOf, includeSandbox, tag });
    return {
      entries: priceIndex(rows, tag).map((e) => ({
        tag: e.tag,
        currency: e.currency,
        count: e.count,
        median: formatAmount(e.median),
        p25: formatAmount(e.p25),
        p75: formatAmount(e.p75),
        min: formatAmount(e.min),
        max: formatAmount(e.max),
      })),
      window,
      asOf,
      includeSandbox,
    };
  }

  async getTaskTape(req: MarketWindowRequest) {
    const window = req.window;
    const asOf = resolveAsOf(req.asOf, this.ctx.clock());
    const includeSandbox = resolveIncludeSandbox(req.includeSandbox, this.ctx.exchangeEnv);
    const t = await repo.tape(this.ctx.pool, { start: windowStartOf(asOf, WINDOW_MS[window]), asOf, includeSandbox });
    const figure = (rows: repo.TapeRow[]) => ({
      count: rows.reduce((n, r) => n + r.count, 0),
      volume: rows.map((r) => money(r.volume, r.currency)),
    });
    return { window, asOf, opened: figure(t.opened), awarded: figure(t.awarded), settled: figure(t.settled), includeSandbox };
  }
}
