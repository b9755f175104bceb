import { errors, isId, resolveLimit } from '@exchange/platform';
import type { CommerceRuntime } from '../service/runtime';
import type { CheckoutSessionRecord } from '../checkout/session.model';
import { getSession } from '../checkout/sessions.repo';
import { artifactPage } from '../evidence/artifact-page';
import { chainHead, sessionIdOf, sessionNotFound } from '../evidence/evidence-access';
import { inSnapshot } from '../evidence/evidence-sources.repo';
import { listEvidence } from '../evidence/evidence.repo';
import { toEntries, type LifecycleEntry } from '../lifecycle/lifecycle.model';
import { listLifecycle } from '../lifecycle/lifecycle.repo';
import type { EvidenceRefRecord, PurchaseFacts } from './records.model';
import type { IntentRecord } from '../intents/intent.model';
import { getIntent } from '../intents/intents.repo';
import { eventsOfDeal } from '../cases/cases.repo';
import * as records from './records.repo';
import type { AgentSpendSavings, CurrencyRollup } from './rollups.model';
import { monthlyRollup, spendSavings } from './rollups.repo';
import { compareShadows, type ShadowComparison, type ShadowSummary } from './shadow-compare';
import { liveCounterparts, shadowSessions } from './shadow.repo';
import { buildTimeline, type TimelineItem } from './timeline';
import { filterText } from './filters';
import { assertDealReader, requireOperator, shadowBuyerFilter, type TransparencyActor } from './transparency-access';
import { agentCurrencyAfter, agentCurrencyCursor, pageAfter, type PageInput } from './transparency-pages';
import { monthWindow, optionalMonthWindow, rangeWindow, type TimeWindow } from './window';

export type TransparencyDeps = Pick<CommerceRuntime, 'pool' | 'clock'>;

export interface ShadowCompareInput {
  from?: Date;
  to?: Date;
  merchantDomain?: string;
  buyerAgentId?: string;
  page?: PageInput;
}

export interface ShadowCompareResult extends TimeWindow {
  comparisons: ShadowComparison[];
  summary: ShadowSummary;
  nextCursor: string;
}

export interface SpendSavingsInput {
  window?: string;
  agentId?: string;
  currency?: string;
  page?: PageInput;
}

export interface SessionRecordView {
  session: CheckoutSessionRecord;
  lifecycle: LifecycleEntry[];
  evidence: EvidenceRefRecord[];
  chainValid: boolean;
  purchase: PurchaseFacts | null;
  intent: IntentRecord | null;
  caseIds: string[];
}

export interface PurchaseTimeline {
  dealId: string;
  commerceSessionId: string;
  entries: TimelineItem[];
}


/** Transparency: shadow compare, rollups, a session's record and a purchase's timeline (reads only, one snapshot each). */
export class TransparencyService {
  constructor(private readonly deps: TransparencyDeps) {}

  async compareShadow(actor: TransparencyActor | undefined, input: ShadowCompareInput): Promise<ShadowCompareResult> {
    const buyerAgentId = shadowBuyerFilter(actor, input.buyerAgentId);
    const window = rangeWindow(input.from, input.to, this.deps.clock());
    const filters = { merchantDomain: filterText('merchant_domain', input.merchantDomain), buyerAgentId: buyerAgentId === null ? null : filterText('buyer_agent_id', buyerAgentId) };
    const { shadows, lives } = await inSnapshot(this.deps.pool, async (db) => ({
      shadows: await shadowSessions(db, window, filters),
      lives: await liveCounterparts(db, window, filters),
    }));
    const { comparisons, summary } = compareShadows(shadows, lives);
    const page = pageAfter(comparisons, (c) => c.shadow, input.page);
    return { ...window, comparisons: page.items, summary, nextCursor: page.nextCursor };
  }

  async monthly(actor: TransparencyActor | undefined, window: string): Promise<{ window: string } & TimeWindow & { currencies: CurrencyRollup[] }> {
    requireOperator(actor);
    const w = monthWindow(window);
    const currencies = await inSnapshot(this.deps.pool, (db) => monthlyRollup(db, w));
    return { window, ...w, currencies };
  }

  async spendSavings(actor: TransparencyActor | undefined, input: SpendSavingsInput): Promise<{ window: string | null; rows: AgentSpendSavings[]; nextCursor: string }> {
    requireOperator(actor);
    const w = optionalMonthWindow(input.window);
    const limit = resolveLimit(input.page?.limit);
    const after = agentCurrencyAfter(input.page?.cursor);
    const fetched = await inSnapshot(this.deps.pool, (db) =>
      spendSavings(db, { window: w, agentId: filterText('agent_id', input.agentId), currency: filterText('currency', input.currency), after, limit: limit + 1 }),
    );
    const rows = fetched.slice(0, limit);
    return { window: input.window === undefined || input.window === '' ? null : input.window, rows, nextCursor: fetched.length > limit ? agentCurrencyCursor(rows[rows.length - 1]) : '' };
  }

  async sessionRecord(actor: TransparencyActor | undefined, sessionId: string): Promise<SessionRecordView> {
    requireOperator(actor);
    const { id, wellFormed } = sessionIdOf(sessionId);
    return inSnapshot(this.deps.pool, async (db) => {
      const session = wellFormed ? await getSession(db, id) : null;
      if (!session) throw sessionNotFound(id);
      const chain = await listEvidence(db, id);
      const purchase = await records.purchaseBySession(db, id);
      return {
        session,
        lifecycle: toEntries(await listLifecycle(db, id)),
        evidence: chain.map(({ evidenceId, seq, kind, operation, contentSha256, hash, recordedAt }) => ({ evidenceId, seq, kind, operation, contentSha256, hash, recordedAt })),
        // The artifacts endpoint's own verdict: every link recomputes and the chain reaches the session's head.
        chainValid: artifactPage(chain, { seq: session.evidenceSeq, hash: chainHead(session) }, undefined).chainValid,
        purchase,
        intent: session.intentId === null ? null : await getIntent(db, session.intentId),
        caseIds: purchase ? await records.caseIdsOfDeal(db, purchase.dealId) : [],
      };
    });
  }

  async timeline(actor: TransparencyActor | undefined, dealId: string): Promise<PurchaseTimeline> {
    if (dealId === '') throw errors.invalidArgument('validation_failed', 'deal_id is required', { field: 'deal_id' });
    return inSnapshot(this.deps.pool, async (db) => {
      // A malformed id cannot name a purchase (and never reaches SQL).
      const purchase = isId('deal', dealId) ? await records.purchaseByDeal(db, dealId) : null;
      if (!purchase) throw errors.notFound('purchase', dealId.length > 80 ? `${dealId.slice(0, 80)}…` : dealId);
      assertDealReader(actor, purchase.buyerAgentId);
      const sessionId = purchase.commerceSessionId;
      const entries = buildTimeline({
        commerceSessionId: sessionId,
        lifecycle: await listLifecycle(db, sessionId),
        webhooks: await records.orderWebhooksOfSession(db, sessionId),
        receipt: { receiptId: purchase.receiptId, dealId, amount: purchase.amount, currency: purchase.currency, completedAt: purchase.completedAt },
        caseEvents: await eventsOfDeal(db, dealId),
        feedback: await records.feedbackOfDeal(db, dealId),
      });
      return { dealId, commerceSessionId: sessionId, entries };
    });
  }
}
