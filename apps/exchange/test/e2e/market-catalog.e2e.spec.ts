import { randomBytes } from 'node:crypto';
import { expectProblem } from './http';
import { DAY, ISO, money } from './market-http';
import type { RawAgent } from './raw-agent';
import { RegistryHttp } from './registry-http';
import { bootStack, type Stack } from './stack';
import { eventually } from './wallet-http';

// The market catalog through the gateway: the seeded contract and work-product templates, a
// contract created from a template inheriting its defaults, fixtures stored as registry objects
// (POST /v1/objects type "fixture") and indexed by the market from the registry's events, and the
// sellers ranked by passed verifications on contracts naming a fixture.

let stack: Stack;
let r: RegistryHttp;
let agent: RawAgent;

beforeAll(async () => {
  stack = await bootStack({ shared: true });
  r = new RegistryHttp(stack.baseUrl, stack.operatorToken);
  agent = await r.newAgent('catalog-reader');
});

afterAll(async () => {
  await stack?.stop();
});

const suffix = () => randomBytes(3).toString('hex');

/** Follows next_cursor to the end; every page has at most `limit` rows. */
async function walk(path: (cursor: string | null) => string, limit: number): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: any[]; next_cursor: string | null } = await r.expectStatus(r.as(agent, 'GET', path(cursor)), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows;
}

const fixturePayload = (fixtureId: string, over: Record<string, unknown> = {}) => ({
  fixture_id: fixtureId,
  type: 'unit_tests',
  evidence_tier: 'reproducible',
  determinism_class: 'deterministic',
  spec: { command: 'npm test', expect: { failed: 0 } },
  ...over,
});

/** Stores a public fixture object signed by `signer` and waits until the market lists it. */
async function publishFixture(signer: RawAgent, fixtureId: string, over: Record<string, unknown> = {}) {
  const payload = fixturePayload(fixtureId, over);
  const stored = await r.expectStatus(r.storeObject(signer, r.objectBody(signer, payload, { type: 'fixture', tags: ['e2e'] })), 201);
  const listed = await eventually(
    () => r.expectStatus(r.as(agent, 'GET', `/v1/fixtures?fixture_id=${fixtureId}`), 200),
    (page) => page.data.length === 1,
    120,
    100,
  );
  return { objectId: stored.object_id as string, fixture: listed.data[0] };
}

describe('GET /v1/contract-templates', () => {
  it('lists the seeded templates by template_id, paginated and filtered by tag', async () => {
    const all = await r.expectStatus(r.as(agent, 'GET', '/v1/contract-templates?limit=200'), 200);
    const ids = all.data.map((t: any) => t.template_id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(ids).toEqual([...ids].sort());
    expect(all.next_cursor).toBeNull();
    const code = all.data.find((t: any) => t.template_id === 'code-change-with-tests');
    expect(code).toEqual({
      template_id: 'code-change-with-tests',
      name: 'Code change with tests',
      description: expect.any(String),
      tags: ['code', 'software', 'tests'],
      acceptance_criteria: expect.stringContaining('## Acceptance criteria'),
      default_verification_mode: 'verifier',
      default_deadline: 'P3D',
      suggested_budget: money('50'),
      work_product_template_id: 'patch-with-tests',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const walked = await walk((cursor) => `/v1/contract-templates?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, 3);
    expect(walked.map((t) => t.template_id)).toEqual(ids);
    const tagged = await r.expectStatus(r.as(agent, 'GET', '/v1/contract-templates?tag=translation'), 200);
    expect(tagged.data.map((t: any) => t.template_id)).toEqual(['translation']);
  });

  it('refuses a malformed tag, limit or cursor with 400', async () => {
    expectProblem(await r.as(agent, 'GET', '/v1/contract-templates?limit=201'), 400, 'validation_failed');
    expectProblem(await r.as(agent, 'GET', '/v1/contract-templates?cursor=not-a-cursor'), 400, 'invalid_cursor');
    expectProblem(await r.as(agent, 'GET', '/v1/contract-templates?tag=Not%20A%20Tag'), 400, 'validation_failed');
  });
});

describe('GET /v1/contract-templates/{template_id}', () => {
  it('returns one template', async () => {
    const t = await r.expectStatus(r.as(agent, 'GET', '/v1/contract-templates/research-brief-with-citations'), 200);
    expect(t).toMatchObject({ template_id: 'research-brief-with-citations', work_product_template_id: 'research-brief', default_deadline: 'P5D' });
  });

  it('answers 404 contract_template_not_found for an unknown id', async () => {
    expectProblem(await r.as(agent, 'GET', '/v1/contract-templates/no-such-template'), 404, 'contract_template_not_found');
  });
});

describe('GET /v1/work-product-templates', () => {
  it('lists work-product templates with their JSON Schema, by template_id and by tag', async () => {
    const all = await r.expectStatus(r.as(agent, 'GET', '/v1/work-product-templates'), 200);
    const ids = all.data.map((t: any) => t.template_id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(ids).toEqual([...ids].sort());
    for (const t of all.data) {
      expect(t.payload_schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
      for (const field of t.payload_schema.required) expect(Object.keys(t.payload_schema.properties)).toContain(field);
      expect(Array.isArray(t.required_artifacts)).toBe(true);
      expect(t.acceptance_criteria).not.toBe('');
    }
    const walked = await walk((cursor) => `/v1/work-product-templates?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, 4);
    expect(walked.map((t) => t.template_id)).toEqual(ids);
    const data = await r.expectStatus(r.as(agent, 'GET', '/v1/work-product-templates?tag=data'), 200);
    expect(data.data.map((t: any) => t.template_id)).toEqual(['json-extraction', 'labeled-dataset']);
  });

  it('refuses a malformed limit with 400', async () => {
    expectProblem(await r.as(agent, 'GET', '/v1/work-product-templates?limit=0'), 400, 'validation_failed');
  });
});

describe('GET /v1/work-product-templates/{template_id}', () => {
  it('returns one template', async () => {
    const t = await r.expectStatus(r.as(agent, 'GET', '/v1/work-product-templates/patch-with-tests'), 200);
    expect(t.template_id).toBe('patch-with-tests');
    expect(t.payload_schema.required).toEqual(expect.arrayContaining(['base_commit', 'patch_ref', 'tests']));
  });

  it('answers 404 work_product_template_not_found for an unknown id', async () => {
    expectProblem(await r.as(agent, 'GET', '/v1/work-product-templates/nope'), 404, 'work_product_template_not_found');
  });
});

describe('POST /v1/contracts from a template', () => {
  it('inherits the template’s defaults for what the request leaves out', async () => {
    const buyer = await r.newAgent('tpl-buyer');
    const before = Date.now();
    const created = await r.expectStatus(r.as(buyer, 'POST', '/v1/contracts', { title: 'Extract 40 invoices to JSON', template_id: 'data-extraction-to-json-schema' }), 201);
    const template = await r.expectStatus(r.as(agent, 'GET', '/v1/contract-templates/data-extraction-to-json-schema'), 200);
    expect(created).toMatchObject({
      title: 'Extract 40 invoices to JSON',
      description: template.description,
      tags: template.tags,
      acceptance_criteria: template.acceptance_criteria,
      verification_mode: 'buyer',
      budget: money('30'),
      template_id: 'data-extraction-to-json-schema',
      work_product_template_id: 'json-extraction',
      fixture_id: null,
      sandbox: true,
      status: 'open',
    });
    expect(Date.parse(created.deadline)).toBe(Date.parse(created.created_at) + 2 * DAY);
    expect(Date.parse(created.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await r.contract(created.contract_id)).template_id).toBe('data-extraction-to-json-schema');
  });

  it('answers 404 for an unknown template or fixture, and 400 without a template when the budget is missing', async () => {
    const buyer = await r.newAgent('tpl-buyer-bad');
    expectProblem(await r.createContract(buyer, { template_id: 'no-such-template' }), 404, 'contract_template_not_found');
    expectProblem(await r.createContract(buyer, { fixture_id: 'never-indexed' }), 404, 'fixture_not_found');
    const { budget: _omit, ...noBudget } = r.contractBody();
    const res = await r.as(buyer, 'POST', '/v1/contracts', noBudget);
    expectProblem(res, 400, 'validation_failed');
    expect(res.text).toContain('budget');
  });
});

describe('GET /v1/fixtures', () => {
  it('lists a fixture stored through POST /v1/objects once the market indexed it, with all four filters', async () => {
    const author = await r.newAgent('fixture-author');
    const id = `csv-parser.golden-${suffix()}`;
    const { objectId, fixture } = await publishFixture(author, id, { type: 'golden_output', evidence_tier: 'attested', determinism_class: 'bounded' });
    expect(fixture).toEqual({
      fixture_id: id,
      type: 'golden_output',
      evidence_tier: 'attested',
      determinism_class: 'bounded',
      spec: { command: 'npm test', expect: { failed: 0 } },
      object_id: objectId,
      signer_agent_id: author.agentId,
      tags: ['e2e'],
      created_at: expect.stringMatching(ISO),
    });
    const other = `sort.unit-${suffix()}`;
    await publishFixture(author, other);
    const ids = async (query: string) => (await r.expectStatus(r.as(agent, 'GET', `/v1/fixtures?${query}`), 200)).data.map((f: any) => f.fixture_id);
    expect(await ids('type=golden_output')).toContain(id);
    expect(await ids('type=golden_output')).not.toContain(other);
    expect(await ids('evidence_tier=attested&determinism_class=bounded')).toContain(id);
    expect(await ids('determinism_class=deterministic')).toEqual(expect.arrayContaining([other]));
    expect(await ids('limit=200')).toEqual(expect.arrayContaining([other, id]));
    // newest first
    const both = await ids('limit=200');
    expect(both.indexOf(other)).toBeLessThan(both.indexOf(id));
    // a second object with the same fixture_id is stored by the registry but not indexed again
    await r.expectStatus(r.storeObject(author, r.objectBody(author, fixturePayload(id, { spec: { other: true } }), { type: 'fixture' })), 201);
    const still = await r.expectStatus(r.as(agent, 'GET', `/v1/fixtures?fixture_id=${id}`), 200);
    expect(still.data.map((f: any) => f.object_id)).toEqual([objectId]);
  });

  it('refuses a malformed fixture object (400 fixture_invalid) and a bad filter value (400)', async () => {
    const author = await r.newAgent('fixture-bad');
    const bad = fixturePayload(`bad-${suffix()}`, { evidence_tier: 'trusted' });
    const res = await r.storeObject(author, r.objectBody(author, bad, { type: 'fixture' }));
    expectProblem(res, 400, 'fixture_invalid');
    expect(res.text).toContain('evidence_tier');
    expectProblem(await r.storeObject(author, r.objectBody(author, { ...fixturePayload(`x-${suffix()}`), extra: 1 }, { type: 'fixture' })), 400, 'fixture_invalid');
    expectProblem(await r.as(agent, 'GET', '/v1/fixtures?type=smoke_tests'), 400, 'validation_failed');
    expectProblem(await r.as(agent, 'GET', '/v1/fixtures?determinism_class=random'), 400, 'validation_failed');
  });
});

describe('GET /v1/fixtures/sellers', () => {
  it('ranks the sellers of passed verifications on contracts naming a fixture', async () => {
    const author = await r.newAgent('fixture-owner');
    const fid = `rank-${suffix()}`;
    await publishFixture(author, fid, { type: 'property_tests' });
    const settledOn = async (seller: RawAgent) => {
      const { contractId, buyer } = await r.awarded({ seller, contract: { fixture_id: fid } });
      const result = await r.submitResult(seller, contractId);
      await r.expectStatus(r.verify(buyer, contractId, result.result_id, 'pass'), 201);
      return contractId;
    };
    const strong = await r.newAgent('fx-seller-strong');
    const weak = await r.newAgent('fx-seller-weak');
    expect((await r.contract(await settledOn(weak))).fixture_id).toBe(fid);
    await settledOn(strong);
    await settledOn(strong);
    // a failure of the weak seller counts as a failure, not a pass
    const { contractId, buyer } = await r.awarded({ seller: weak, contract: { fixture_id: fid } });
    const failed = await r.submitResult(weak, contractId);
    await r.expectStatus(r.verify(buyer, contractId, failed.result_id, 'fail'), 201);

    const ranked = await r.expectStatus(r.as(agent, 'GET', `/v1/fixtures/sellers?fixture_id=${fid}`), 200);
    expect(ranked.data).toEqual([
      { seller_id: strong.agentId, passed_verifications: 2, failed_verifications: 0, fixture_ids: [fid], last_passed_at: expect.stringMatching(ISO) },
      { seller_id: weak.agentId, passed_verifications: 1, failed_verifications: 1, fixture_ids: [fid], last_passed_at: expect.stringMatching(ISO) },
    ]);
    expect(ranked.next_cursor).toBeNull();
    const paged = await walk((cursor) => `/v1/fixtures/sellers?fixture_id=${fid}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, 1);
    expect(paged.map((s) => s.seller_id)).toEqual([strong.agentId, weak.agentId]);
    const byType = await r.expectStatus(r.as(agent, 'GET', '/v1/fixtures/sellers?type=property_tests&limit=200'), 200);
    expect(byType.data.map((s: any) => s.seller_id)).toEqual(expect.arrayContaining([strong.agentId, weak.agentId]));
  });

  it('refuses a bad filter value or a foreign cursor with 400', async () => {
    expectProblem(await r.as(agent, 'GET', '/v1/fixtures/sellers?evidence_tier=gold'), 400, 'validation_failed');
    const templatesPage = await r.expectStatus(r.as(agent, 'GET', '/v1/contract-templates?limit=1'), 200);
    expectProblem(await r.as(agent, 'GET', `/v1/fixtures/sellers?cursor=${encodeURIComponent(templatesPage.next_cursor)}`), 400, 'invalid_cursor');
  });
});
