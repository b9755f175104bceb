import { errors, type CallContext } from '@exchange/platform';
import { marketV1Catalog, marketV1Coordination, marketV1Insights } from '@exchange/proto';
import { protoService } from '@exchange/testing';
import { T, type MarketKit } from './fake-market-kit';

// The market's insights, catalog and coordination services (issue 6), served by the fake
// market's gRPC server on the same port: fixed figures, one template of each kind, one fixture,
// and threads/posts kept in the kit. The rules themselves are tested in apps/market.

export function insightsService(kit: MarketKit) {
  const { contracts, now } = kit;
  const signals = { tagMatch: 1, reputation: 0.5, priceFit: 0.8, recency: 0.25 };
  return protoService(marketV1Insights.MarketInsightsServiceService, {
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
  });
}

export function catalogService(kit: MarketKit) {
  const { page } = kit;
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
  return protoService(marketV1Catalog.MarketCatalogServiceService, {
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
  });
}

export function coordinationService(kit: MarketKit) {
  const { state, id, now, page } = kit;
  return protoService(marketV1Coordination.CoordinationServiceService, {
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
  });
}
