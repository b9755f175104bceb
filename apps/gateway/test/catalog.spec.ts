import { expectProblem, registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// The market catalog through the gateway (fake market): templates and fixtures — filters,
// validation of the enum filters, JSON text fields parsed, 404 codes and auth.

let h: Harness;
let agent: TestAgent;

beforeAll(async () => {
  h = await startHarness();
  agent = new TestAgent(uniqueAgentId('catalog'));
  await registerAgent(h.app, agent);
});

afterAll(async () => {
  await h.close();
});

const get = (url: string) => h.app.inject({ method: 'GET', url, headers: agent.signedHeaders('GET', url) });

describe('GET /v1/contract-templates', () => {
  it('should pass tag and page and answer {data, next_cursor}', async () => {
    const res = await get('/v1/contract-templates?tag=code&limit=10');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listContractTemplates').request).toEqual({ page: { limit: 10, cursor: '' }, tag: 'code' });
    expect(res.json()).toEqual({
      data: [
        {
          template_id: 'code-change-with-tests',
          name: 'Code change with tests',
          description: 'A patch and its tests',
          tags: ['code'],
          acceptance_criteria: '- tests pass',
          default_verification_mode: 'verifier',
          default_deadline: 'P3D',
          suggested_budget: { amount: '50', currency: 'CREDIT' },
          work_product_template_id: 'patch-with-tests',
          created_at: '2026-11-21T18:00:00.000Z',
          updated_at: '2026-11-21T18:00:00.000Z',
        },
      ],
      next_cursor: null,
    });
  });

  it('should answer 400 for an unknown query field and 401 without credentials', async () => {
    expectProblem(await get('/v1/contract-templates?sort=name'), 400, 'validation_failed');
    expectProblem(await h.app.inject({ method: 'GET', url: '/v1/contract-templates' }), 401, 'unauthenticated');
  });
});

describe('GET /v1/contract-templates/{template_id}', () => {
  it('should read a template and carry 404 contract_template_not_found', async () => {
    expect((await get('/v1/contract-templates/code-change-with-tests')).json().template_id).toBe('code-change-with-tests');
    expectProblem(await get('/v1/contract-templates/no-such-template'), 404, 'contract_template_not_found');
  });

  it('should refuse a template id that is not a slug', async () => {
    expectProblem(await get('/v1/contract-templates/Not_A_Slug'), 400, 'validation_failed');
  });
});

describe('GET /v1/work-product-templates', () => {
  it('should answer templates with the payload schema as an object', async () => {
    const res = await get('/v1/work-product-templates');
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({
      template_id: 'patch-with-tests',
      payload_schema: { type: 'object', required: ['tests_passed'] },
      required_artifacts: ['patch (unified diff)'],
    });
  });

  it('should answer 400 for a limit above 200', async () => {
    expectProblem(await get('/v1/work-product-templates?limit=201'), 400, 'validation_failed');
  });
});

describe('GET /v1/work-product-templates/{template_id}', () => {
  it('should read a template and carry 404 work_product_template_not_found', async () => {
    expect((await get('/v1/work-product-templates/patch-with-tests')).statusCode).toBe(200);
    expectProblem(await get('/v1/work-product-templates/nope'), 404, 'work_product_template_not_found');
  });
});

describe('GET /v1/fixtures', () => {
  it('should pass all four filters and answer fixtures with the spec as an object', async () => {
    const res = await get('/v1/fixtures?fixture_id=json-extract-golden-1&type=golden_output&evidence_tier=reproducible&determinism_class=deterministic');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listFixtures').request).toEqual({
      page: { limit: 0, cursor: '' },
      fixtureId: 'json-extract-golden-1',
      type: 'golden_output',
      evidenceTier: 'reproducible',
      determinismClass: 'deterministic',
    });
    expect(res.json().data[0]).toEqual({
      fixture_id: 'json-extract-golden-1',
      type: 'golden_output',
      evidence_tier: 'reproducible',
      determinism_class: 'deterministic',
      spec: { input: 'a.csv' },
      object_id: 'obj_fake-1',
      signer_agent_id: 'acme:agent:seller-1',
      tags: ['data'],
      created_at: '2026-11-21T18:00:00.000Z',
    });
  });

  it.each(['type=fuzzing', 'evidence_tier=trust_me', 'determinism_class=random', 'fixture_id=UPPER'])('should answer 400 for %s', async (query) => {
    expectProblem(await get(`/v1/fixtures?${query}`), 400, 'validation_failed');
  });
});

describe('GET /v1/fixtures/sellers', () => {
  it('should answer the ranking with the same filters', async () => {
    const res = await get('/v1/fixtures/sellers?type=golden_output');
    expect(res.statusCode).toBe(200);
    expect(h.market.lastCall('listFixtureSellers').request).toMatchObject({ type: 'golden_output' });
    expect(res.json().data).toEqual([
      { seller_id: 'acme:agent:seller-1', passed_verifications: 2, failed_verifications: 0, fixture_ids: ['json-extract-golden-1'], last_passed_at: '2026-11-21T18:00:00.000Z' },
    ]);
  });

  it('should answer 400 for a bad evidence tier', async () => {
    expectProblem(await get('/v1/fixtures/sellers?evidence_tier=gold'), 400, 'validation_failed');
  });
});
