import { errors, type CallContext } from '@exchange/platform';
import { marketV1, marketV1Catalog, marketV1Coordination, marketV1Governance, marketV1Insights, marketV1Integrity, walletV1 } from '@exchange/proto';

// In-memory handlers of the market's issue-6 services (integrity, insights, catalog,
// coordination, governance), served by the fake market's gRPC server on the same port. They
// answer with resources built from the requests and keep just enough state for the gateway's
// mapping, guard and auth tests; the rules themselves are tested in apps/market.

const I = marketV1Integrity;
const M = marketV1;
const SWITCHES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'];
const T = new Date('2026-11-21T18:00:00.000Z');

export interface Part2State {
  snapshot: marketV1Integrity.IntegritySnapshot;
  audit: marketV1Integrity.IntegrityAuditEntry[];
  threads: Map<string, marketV1Coordination.Thread>;
  posts: marketV1Coordination.Post[];
  reviews: Map<string, marketV1.ResaleReview>;
}

export function initialSnapshot(): marketV1Integrity.IntegritySnapshot {
  return {
    state: I.IntegrityState.INTEGRITY_STATE_NORMAL,
    since: T,
    killSwitches: SWITCHES.map((name) => ({ name, enabled: false })),
    walletControlsSynced: true,
  };
}

export function part2Handlers(contracts: Map<string, marketV1.Contract>, id: (prefix: string) => string, now: () => Date) {
  const state: Part2State = {
    snapshot: initialSnapshot(),
    audit: [],
    threads: new Map(),
    posts: [],
    reviews: new Map([
      [
        'rld_fake-pending',
        {
          decisionRef: 'rld_fake-pending',
          contractId: 'ctr_fake-resale',
          resaleOf: 'ctr_fake-parent',
          rootContractId: 'ctr_fake-parent',
          depth: 1,
          lineage: ['ctr_fake-parent'],
          status: M.ResaleReviewStatus.RESALE_REVIEW_STATUS_PENDING,
          createdAt: T,
          updatedAt: T,
        },
      ],
    ]),
  };
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
  const operatorOnly = (ctx: CallContext) => {
    if (!ctx.actor?.startsWith('operator:')) throw errors.permissionDenied('operator_required', 'operator only');
  };
  const page = (rows: unknown[]) => ({ nextCursor: rows.length > 1 ? 'fake-cursor' : '' });

  const integrity = {
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
  };

  const signals = { tagMatch: 1, reputation: 0.5, priceFit: 0.8, recency: 0.25 };
  const insights = {
    async getReputation(req: marketV1Insights.GetReputationRequest) {
      if (req.agentId.endsWith(':agent:nobody')) throw errors.notFound('agent', req.agentId);
      return {
        reputation: {
          agentId: req.agentId,
          score: 0.75,
          confidence: 0.5,
          windowDays: req.windowDays ?? 90,
          asOf: req.asOf ?? now(),
          components: {
            settledAsSeller: 3,
            settledAsBuyer: 1,
            verificationsPassed: 3,
            verificationsFailed: 1,
            disputesWon: 0,
            disputesLost: 1,
            disputesSplit: 0,
            evidenceWeight: 4.5,
          },
          receiptIds: req.includeReceipts ? ['rcpt_fake-a'] : [],
          volume: [{ amount: '270', currency: 'CREDIT' }],
          formula: 'rep-v1',
        },
      };
    },
    async getVerifierReputation(req: marketV1Insights.GetVerifierReputationRequest) {
      if (req.verifierId.endsWith(':agent:nobody')) throw errors.notFound('verifier', req.verifierId);
      return {
        reputation: {
          verifierId: req.verifierId,
          score: 0.6,
          confidence: 0.2,
          windowDays: req.windowDays ?? 90,
          asOf: req.asOf ?? now(),
          reports: 4,
          passed: 3,
          failed: 1,
          disputed: 0,
          agreements: 0,
          medianLatencyMs: '5400',
          formula: 'vrep-v1',
        },
      };
    },
    async recommendSellers(req: marketV1Insights.RecommendSellersRequest) {
      if (!contracts.has(req.contractId)) throw errors.notFound('contract', req.contractId);
      return {
        sellers: [{ sellerId: 'acme:agent:seller-1', score: 0.8, rank: 1, exploration: false, signals: { ...signals, matching: 0.4 }, listingId: 'lst_fake-1' }],
        explorationSlots: 0,
        requestId: req.requestId,
      };
    },
    async recommendContracts(req: marketV1Insights.RecommendContractsRequest) {
      return {
        contracts: [{ contractId: 'ctr_fake-1', score: 0.7, rank: 1, exploration: true, signals }],
        explorationSlots: 1,
        requestId: req.requestId,
      };
    },
    async getPriceIndex(req: marketV1Insights.GetPriceIndexRequest) {
      return {
        entries: [{ tag: req.tag ?? 'nlp', currency: 'CREDIT', count: 3, median: '90', p25: '85', p75: '95', min: '80', max: '100' }],
        window: req.window || marketV1Insights.InsightWindow.INSIGHT_WINDOW_ALL,
        asOf: req.asOf ?? now(),
        includeSandbox: req.includeSandbox ?? true,
      };
    },
    async getTaskTape(req: marketV1Insights.GetTaskTapeRequest) {
      const fig = (count: number) => ({ count, volume: count ? [{ amount: String(count * 100), currency: 'CREDIT' }] : [] });
      return {
        window: req.window || marketV1Insights.InsightWindow.INSIGHT_WINDOW_ALL,
        asOf: req.asOf ?? now(),
        opened: fig(3),
        awarded: fig(2),
        settled: fig(0),
        includeSandbox: req.includeSandbox ?? true,
      };
    },
  };

  const template: marketV1Catalog.ContractTemplate = {
    templateId: 'code-change-with-tests',
    name: 'Code change with tests',
    description: 'A patch and its tests',
    tags: ['code'],
    acceptanceCriteria: '- tests pass',
    defaultVerificationMode: 'verifier',
    defaultDeadline: 'P3D',
    suggestedBudget: { amount: '50', currency: 'CREDIT' },
    workProductTemplateId: 'patch-with-tests',
    createdAt: T,
    updatedAt: T,
  };
  const wpTemplate: marketV1Catalog.WorkProductTemplate = {
    templateId: 'patch-with-tests',
    name: 'Patch with test report',
    description: 'A unified diff and a test report',
    tags: ['code'],
    payloadSchemaJson: '{"type":"object","required":["tests_passed"]}',
    requiredArtifacts: ['patch (unified diff)'],
    acceptanceCriteria: '- applies cleanly',
    createdAt: T,
    updatedAt: T,
  };
  const fixture: marketV1Catalog.Fixture = {
    fixtureId: 'json-extract-golden-1',
    type: 'golden_output',
    evidenceTier: 'reproducible',
    determinismClass: 'deterministic',
    specJson: '{"input":"a.csv"}',
    objectId: 'obj_fake-1',
    signerAgentId: 'acme:agent:seller-1',
    tags: ['data'],
    createdAt: T,
  };
  const catalog = {
    async listContractTemplates(req: marketV1Catalog.ListContractTemplatesRequest) {
      const rows = req.tag === undefined || template.tags.includes(req.tag) ? [template] : [];
      return { templates: rows, page: page(rows) };
    },
    async getContractTemplate(req: marketV1Catalog.GetContractTemplateRequest) {
      if (req.templateId !== template.templateId) throw errors.notFound('contract_template', req.templateId);
      return { template };
    },
    async listWorkProductTemplates(req: marketV1Catalog.ListWorkProductTemplatesRequest) {
      const rows = req.tag === undefined || wpTemplate.tags.includes(req.tag) ? [wpTemplate] : [];
      return { templates: rows, page: page(rows) };
    },
    async getWorkProductTemplate(req: marketV1Catalog.GetWorkProductTemplateRequest) {
      if (req.templateId !== wpTemplate.templateId) throw errors.notFound('work_product_template', req.templateId);
      return { template: wpTemplate };
    },
    async listFixtures() {
      return { fixtures: [fixture], page: page([fixture]) };
    },
    async listFixtureSellers() {
      const row = { sellerId: 'acme:agent:seller-1', passedVerifications: 2, failedVerifications: 0, fixtureIds: ['json-extract-golden-1'], lastPassedAt: T };
      return { sellers: [row], page: page([row]) };
    },
  };

  const coordination = {
    async createThread(req: marketV1Coordination.CreateThreadRequest, ctx: CallContext) {
      const thread: marketV1Coordination.Thread = {
        threadId: id('thr'),
        title: req.title,
        tags: req.tags,
        createdBy: req.createdBy || ctx.agentId || '',
        contractId: req.contractId,
        postCount: req.body === undefined ? 0 : 1,
        lastPostAt: req.body === undefined ? undefined : now(),
        createdAt: now(),
        updatedAt: now(),
      };
      state.threads.set(thread.threadId, thread);
      let firstPost: marketV1Coordination.Post | undefined;
      if (req.body !== undefined) {
        firstPost = { postId: id('pst'), threadId: thread.threadId, author: thread.createdBy, body: req.body, attachments: req.attachments, createdAt: now() };
        state.posts.push(firstPost);
      }
      return { thread, firstPost, idempotentReplayed: false };
    },
    async getThread(req: marketV1Coordination.GetThreadRequest) {
      const thread = state.threads.get(req.threadId);
      if (!thread) throw errors.notFound('thread', req.threadId);
      return { thread };
    },
    async listThreads() {
      const rows = [...state.threads.values()].reverse();
      return { threads: rows, page: page(rows) };
    },
    async createPost(req: marketV1Coordination.CreatePostRequest, ctx: CallContext) {
      if (!state.threads.has(req.threadId)) throw errors.notFound('thread', req.threadId);
      const post = { postId: id('pst'), threadId: req.threadId, author: req.author || ctx.agentId || '', body: req.body, attachments: req.attachments, createdAt: now() };
      state.posts.push(post);
      return { post, idempotentReplayed: false };
    },
    async listPosts(req: marketV1Coordination.ListPostsRequest) {
      if (!state.threads.has(req.threadId)) throw errors.notFound('thread', req.threadId);
      const rows = state.posts.filter((p) => p.threadId === req.threadId);
      return { posts: rows, page: page(rows) };
    },
  };

  const governance = {
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
  };

  return {
    state,
    services: [
      { definition: I.MarketIntegrityServiceService, handlers: integrity },
      { definition: marketV1Insights.MarketInsightsServiceService, handlers: insights },
      { definition: marketV1Catalog.MarketCatalogServiceService, handlers: catalog },
      { definition: marketV1Coordination.CoordinationServiceService, handlers: coordination },
      { definition: marketV1Governance.ContractGovernanceServiceService, handlers: governance },
    ],
  };
}
