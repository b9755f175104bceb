import { status } from '@grpc/grpc-js';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { identityV1, marketV1, marketV1Catalog } from '@exchange/proto';
import { contractInput, grpcError, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

type CatalogClient = PromiseClient<typeof marketV1Catalog.MarketCatalogServiceService>;

const VM = marketV1.VerificationMode;
const DAY = 86_400_000;
const page = (limit = 0, cursor = '') => ({ limit, cursor });

describe('market catalog: templates, template inheritance, fixtures index (gRPC)', () => {
  let h: MarketHarness;
  let catalog: CatalogClient;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_catalog' });
    catalog = createServiceClient(marketV1Catalog.MarketCatalogServiceService, `127.0.0.1:${h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    catalog?.close();
    await h?.close();
  });

  describe('contract and work-product templates', () => {
    it('should list the seeded contract templates by template_id, paginated and filtered by tag', async () => {
      const all = await catalog.listContractTemplates({ page: page(200), tag: undefined });
      const ids = all.templates.map((t) => t.templateId);
      expect(ids.length).toBeGreaterThanOrEqual(6);
      expect(ids).toEqual([...ids].sort());
      expect(ids).toEqual(expect.arrayContaining(['code-change-with-tests', 'data-extraction-to-json-schema', 'translation', 'research-brief-with-citations']));
      expect(all.page!.nextCursor).toBe('');

      const walked: string[] = [];
      let cursor = '';
      do {
        const res = await catalog.listContractTemplates({ page: page(3, cursor), tag: undefined });
        expect(res.templates.length).toBeLessThanOrEqual(3);
        walked.push(...res.templates.map((t) => t.templateId));
        cursor = res.page!.nextCursor;
      } while (cursor !== '');
      expect(walked).toEqual(ids);

      const code = await catalog.listContractTemplates({ page: undefined, tag: 'code' });
      expect(code.templates.length).toBeGreaterThanOrEqual(3);
      for (const t of code.templates) expect(t.tags).toContain('code');
      expect((await catalog.listContractTemplates({ page: undefined, tag: 'no-such-tag' })).templates).toEqual([]);
    });

    it('should give every contract template real defaults and a work-product template that exists', async () => {
      const { templates } = await catalog.listContractTemplates({ page: page(200), tag: undefined });
      for (const t of templates) {
        expect(t.name).not.toBe('');
        expect(t.acceptanceCriteria).toMatch(/^## Acceptance criteria\n\n- /);
        expect(['verifier', 'buyer', 'auto']).toContain(t.defaultVerificationMode);
        expect(t.defaultDeadline).toMatch(/^P\d+D$/);
        expect(t.suggestedBudget).toMatchObject({ currency: 'CREDIT' });
        expect(Number(t.suggestedBudget!.amount)).toBeGreaterThan(0);
        const wpt = await catalog.getWorkProductTemplate({ templateId: t.workProductTemplateId! });
        expect(wpt.template!.templateId).toBe(t.workProductTemplateId);
      }
      const one = await catalog.getContractTemplate({ templateId: 'code-change-with-tests' });
      expect(one.template).toMatchObject({
        templateId: 'code-change-with-tests',
        defaultVerificationMode: 'verifier',
        defaultDeadline: 'P3D',
        suggestedBudget: { amount: '50', currency: 'CREDIT' },
        workProductTemplateId: 'patch-with-tests',
      });
    });

    it('should list work-product templates whose payload schema is a draft 2020-12 object schema', async () => {
      const { templates, page: info } = await catalog.listWorkProductTemplates({ page: page(200), tag: undefined });
      expect(templates.length).toBeGreaterThanOrEqual(6);
      expect(info!.nextCursor).toBe('');
      expect(templates.map((t) => t.templateId)).toEqual([...templates.map((t) => t.templateId)].sort());
      for (const t of templates) {
        const schema = JSON.parse(t.payloadSchemaJson) as { $schema: string; type: string; required: string[]; properties: Record<string, unknown> };
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(schema.type).toBe('object');
        expect(schema.required.length).toBeGreaterThan(0);
        for (const field of schema.required) expect(Object.keys(schema.properties)).toContain(field);
        expect(t.acceptanceCriteria).not.toBe('');
      }
      const patch = await catalog.getWorkProductTemplate({ templateId: 'patch-with-tests' });
      expect(patch.template!.requiredArtifacts.length).toBeGreaterThan(0);
      const data = await catalog.listWorkProductTemplates({ page: page(2), tag: 'data' });
      expect(data.templates.map((t) => t.templateId)).toEqual(['json-extraction', 'labeled-dataset']);
    });

    it('should answer 404 for unknown templates and 400 for a bad tag, limit or cursor', async () => {
      expect(await grpcError(catalog.getContractTemplate({ templateId: 'nope' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'contract_template_not_found' });
      expect(await grpcError(catalog.getWorkProductTemplate({ templateId: 'nope' }))).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'work_product_template_not_found' });
      expect(await grpcError(catalog.listContractTemplates({ page: undefined, tag: 'Bad Tag' }))).toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        code: 'validation_failed',
        details: { field: 'tag' },
      });
      expect(await grpcError(catalog.listWorkProductTemplates({ page: page(201), tag: undefined }))).toMatchObject({ code: 'invalid_limit' });
      expect(await grpcError(catalog.listContractTemplates({ page: page(5, 'garbage!'), tag: undefined }))).toMatchObject({ code: 'invalid_cursor' });
    });
  });

  describe('CreateContract with a template', () => {
    let buyer: TestAgent;
    beforeAll(() => {
      buyer = h.newAgent('tpl-buyer');
    });

    it('should inherit every default the request leaves out', async () => {
      const before = h.clock.now();
      const { contract } = await h.client.createContract(
        marketV1.CreateContractRequest.fromPartial({ title: 'Extract invoices from 40 PDFs', templateId: 'data-extraction-to-json-schema' }),
        h.as(buyer),
      );
      const { template } = await catalog.getContractTemplate({ templateId: 'data-extraction-to-json-schema' });
      expect(contract).toMatchObject({
        title: 'Extract invoices from 40 PDFs',
        description: template!.description,
        tags: template!.tags,
        acceptanceCriteria: template!.acceptanceCriteria,
        verificationMode: VM.VERIFICATION_MODE_BUYER,
        budget: { amount: '30', currency: 'CREDIT' },
        templateId: 'data-extraction-to-json-schema',
        workProductTemplateId: 'json-extraction',
        sandbox: true,
      });
      expect(contract!.fixtureId).toBeUndefined();
      // deadline = creation (the market's clock) + P2D
      expect(contract!.deadline!.getTime()).toBe(contract!.createdAt!.getTime() + 2 * DAY);
      expect(contract!.createdAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
      const { rows } = await h.marketSql.query('SELECT template_id, work_product_template_id, sandbox FROM contracts WHERE id = $1', [contract!.contractId]);
      expect(rows[0]).toEqual({ template_id: 'data-extraction-to-json-schema', work_product_template_id: 'json-extraction', sandbox: true });
    });

    it('should keep what the request gives over the template', async () => {
      const deadline = new Date(h.clock.now().getTime() + 5 * DAY);
      const { contract } = await h.client.createContract(
        contractInput({
          templateId: 'translation',
          workProductTemplateId: 'research-brief',
          description: 'EN → DE, legal register',
          tags: ['legal'],
          budget: { amount: '12.5', currency: 'CREDIT' },
          deadline,
          acceptanceCriteria: 'Reviewed by a lawyer',
          verificationMode: VM.VERIFICATION_MODE_BUYER,
        }),
        h.as(buyer),
      );
      expect(contract).toMatchObject({
        description: 'EN → DE, legal register',
        tags: ['legal'],
        budget: { amount: '12.5', currency: 'CREDIT' },
        deadline,
        acceptanceCriteria: 'Reviewed by a lawyer',
        templateId: 'translation',
        workProductTemplateId: 'research-brief',
      });
    });

    it('should refuse unknown templates and fixtures with 404, and change nothing', async () => {
      const count = async () => Number((await h.marketSql.query('SELECT count(*) FROM contracts WHERE buyer_id = $1', [buyer.agentId])).rows[0].count);
      const before = await count();
      expect(await grpcError(h.client.createContract(contractInput({ templateId: 'no-such-template' }), h.as(buyer)))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'contract_template_not_found',
      });
      expect(await grpcError(h.client.createContract(contractInput({ workProductTemplateId: 'no-such-wpt' }), h.as(buyer)))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'work_product_template_not_found',
      });
      expect(await grpcError(h.client.createContract(contractInput({ fixtureId: 'never-indexed' }), h.as(buyer)))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'fixture_not_found',
      });
      expect(await count()).toBe(before);
    });

    it('should keep the required-field rules without a template (400 naming the field)', async () => {
      const bare = (over: Partial<marketV1.CreateContractRequest>) => h.client.createContract(contractInput(over), h.as(buyer));
      expect(await grpcError(bare({ budget: undefined }))).toMatchObject({ code: 'validation_failed', details: { field: 'budget' } });
      expect(await grpcError(bare({ deadline: undefined }))).toMatchObject({ code: 'validation_failed', details: { field: 'deadline' } });
      expect(await grpcError(bare({ acceptanceCriteria: '' }))).toMatchObject({ code: 'validation_failed', details: { field: 'acceptance_criteria' } });
      expect(await grpcError(bare({ deadline: new Date(h.clock.now().getTime() - 1000) }))).toMatchObject({ code: 'invalid_deadline' });
    });

    it('should apply the template’s verifier mode, which then needs a verifier_id', async () => {
      const req = marketV1.CreateContractRequest.fromPartial({ title: 'Fix the CSV parser', templateId: 'code-change-with-tests' });
      expect(await grpcError(h.client.createContract(req, h.as(buyer)))).toMatchObject({ code: 'verifier_required' });
      const verifier = h.newAgent('tpl-verifier');
      await h.client.registerVerifier({ verifierId: '', name: 'Test runner', description: '', tags: [], fee: undefined, idempotencyKey: '' }, h.as(verifier));
      const { contract } = await h.client.createContract({ ...req, verifierId: verifier.agentId }, h.as(buyer));
      expect(contract).toMatchObject({ verificationMode: VM.VERIFICATION_MODE_VERIFIER, verifierId: verifier.agentId, workProductTemplateId: 'patch-with-tests' });
      expect(contract!.deadline!.getTime()).toBe(contract!.createdAt!.getTime() + 3 * DAY);
    });
  });


  describe('sandbox flag on mainnet', () => {
    it('should mark only a SANDBOX_UNVERIFIED buyer’s contracts sandbox', async () => {
      await h.restartMarket({ EXCHANGE_ENV: 'mainnet' });
      catalog.close();
      catalog = createServiceClient(marketV1Catalog.MarketCatalogServiceService, `127.0.0.1:${h.market.grpcPort}`);
      const fresh = h.newAgent('sandbox-buyer');
      const basic = h.newAgent('mainnet-buyer');
      h.identity.setLevel(basic.agentId, identityV1.IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC);
      expect((await h.client.createContract(contractInput(), h.as(fresh))).contract!.sandbox).toBe(true);
      expect((await h.client.createContract(contractInput(), h.as(basic))).contract!.sandbox).toBe(false);
      expect((await catalog.getContractTemplate({ templateId: 'translation' })).template!.templateId).toBe('translation');
    });
  });
});
