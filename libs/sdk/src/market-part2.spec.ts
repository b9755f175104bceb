import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { idempotencyOf } from './idempotency';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

// Issue-6 SDK methods (integrity, reputation, recommendations, templates, fixtures, coordination,
// market data, buyer alias, resale reviews) against a recording HTTP server: each call's method,
// path, query and JSON body, idempotency keys on mutations, and problems turned into errors.

const AGENT = 'acme:agent:seller';
const SHA = `sha256:${'c'.repeat(64)}`;

describe('issue-6 market APIs', () => {
  let server: RecordingServer;
  let client: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    client = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  it('sends each mutation to its path with snake_case fields and the key in the body', async () => {
    const cases: Array<[() => Promise<unknown>, string, Record<string, unknown>]> = [
      [() => client.integrity.setState({ state: 'elevated', reason: 'volume', idempotencyKey: 'k1' }), '/v1/market-integrity/state', { state: 'elevated', reason: 'volume', idempotency_key: 'k1' }],
      [
        () => client.integrity.setKillSwitch({ name: 'faucet', enabled: true, reason: 'abuse', idempotencyKey: 'k2' }),
        '/v1/market-integrity/kill-switches',
        { name: 'faucet', enabled: true, reason: 'abuse', idempotency_key: 'k2' },
      ],
      [
        () => client.integrity.erroneousClear({ contractId: 'ctr_1', reason: 'forged', idempotencyKey: 'k3' }),
        '/v1/market-integrity/erroneous-clear',
        { contract_id: 'ctr_1', reason: 'forged', idempotency_key: 'k3' },
      ],
      [
        () => client.coordination.createThread({ title: 't', tags: ['data'], contractId: 'ctr_1', body: 'hi', attachments: [SHA], idempotencyKey: 'k4' }),
        '/v1/coordination/threads',
        { title: 't', tags: ['data'], contract_id: 'ctr_1', body: 'hi', attachments: [SHA], idempotency_key: 'k4' },
      ],
      [
        () => client.coordination.post('thr_1', { body: 'second', attachments: [SHA], idempotencyKey: 'k5' }),
        '/v1/coordination/threads/thr_1/posts',
        { body: 'second', attachments: [SHA], idempotency_key: 'k5' },
      ],
      [
        () => client.contracts.updateBuyerAlias('ctr_1', { reason: 'leak', buyerPrivate: false, idempotencyKey: 'k6' }),
        '/v1/contracts/ctr_1/buyer-alias',
        { reason: 'leak', buyer_private: false, idempotency_key: 'k6' },
      ],
      [
        () => client.resaleReviews.decide('rld_1', { decision: 'reject', reason: 'cycle', idempotencyKey: 'k7' }),
        '/v1/contracts/resale-lineage/review-decisions/rld_1',
        { decision: 'reject', reason: 'cycle', idempotency_key: 'k7' },
      ],
      [
        () => client.contracts.create({ title: 'Fix', templateId: 'code-change-with-tests', fixtureId: 'fx-1', resaleOf: 'ctr_0', buyerPrivate: true, idempotencyKey: 'k8' }),
        '/v1/contracts',
        { title: 'Fix', template_id: 'code-change-with-tests', fixture_id: 'fx-1', resale_of: 'ctr_0', buyer_private: true, idempotency_key: 'k8' },
      ],
    ];
    for (const [call, path, body] of cases) {
      server.respond(json(200, { id: 'x' }, { 'idempotent-replayed': 'true' }));
      const result = await call();
      const req = server.requests.at(-1)!;
      expect({ method: req.method, url: req.url }).toEqual({ method: 'POST', url: path });
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(body);
      expect(idempotencyOf(result)).toMatchObject({ key: body['idempotency_key'], replayed: true });
    }
  });

  it('generates a key when none is given', async () => {
    server.respond(json(201, { post_id: 'pst_1' }));
    const post = await client.coordination.post('thr_1', { body: 'x' });
    expect(idempotencyOf(post)?.key).toMatch(/^sdk-/);
  });

  it('sends the reads to their paths with their filters', async () => {
    const asOf = new Date('2026-11-01T00:00:00.000Z');
    const calls: Array<() => Promise<unknown>> = [
      () => client.integrity.get(),
      () => client.integrity.audit({ action: 'kill_switch_set', limit: 5 }),
      () => client.reputation.get(AGENT, { windowDays: 30, asOf, includeReceipts: true }),
      () => client.reputation.verifier(AGENT, { windowDays: 7 }),
      () => client.recommendations.sellersFor('ctr_1', { limit: 5, explorationRate: 0.2, requestId: 'seed' }),
      () => client.recommendations.contractsFor(AGENT),
      () => client.templates.contracts({ tag: 'code' }),
      () => client.templates.getContract('code-change-with-tests'),
      () => client.templates.workProducts({ limit: 10 }),
      () => client.templates.getWorkProduct('patch-with-tests'),
      () => client.fixtures.list({ type: 'golden_output', evidenceTier: 'attested', determinismClass: 'bounded', fixtureId: 'fx-1' }),
      () => client.fixtures.sellers({ type: 'unit_tests' }),
      () => client.coordination.listThreads({ tag: 'data', createdBy: AGENT, contractId: 'ctr_1' }),
      () => client.coordination.getThread('thr_1'),
      () => client.coordination.listPosts('thr_1', { author: AGENT, attachment: SHA }),
      () => client.marketData.priceIndex({ window: '30d', asOf: '2026-11-01T00:00:00.000Z', includeSandbox: true, tag: 'nlp' }),
      () => client.marketData.taskTape({ window: '1d', includeSandbox: false }),
      () => client.resaleReviews.list({ status: 'pending', contractId: 'ctr_1' }),
      () => client.resaleReviews.get('rld_1'),
    ];
    for (const call of calls) {
      server.respond(json(200, { data: [], next_cursor: null }));
      await call();
    }
    const a = encodeURIComponent(AGENT);
    const t = encodeURIComponent(asOf.toISOString());
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/market-integrity/state',
      'GET /v1/market-integrity/audit?limit=5&action=kill_switch_set',
      `GET /v1/reputation/${AGENT}?window_days=30&as_of=${t}&include_receipts=true`,
      `GET /v1/reputation/verifier/${AGENT}?window_days=7`,
      'GET /v1/recommendations/contracts/ctr_1/sellers?limit=5&exploration_rate=0.2&request_id=seed',
      `GET /v1/recommendations/sellers/${AGENT}/contracts`,
      'GET /v1/contract-templates?tag=code',
      'GET /v1/contract-templates/code-change-with-tests',
      'GET /v1/work-product-templates?limit=10',
      'GET /v1/work-product-templates/patch-with-tests',
      'GET /v1/fixtures?fixture_id=fx-1&type=golden_output&evidence_tier=attested&determinism_class=bounded',
      'GET /v1/fixtures/sellers?type=unit_tests',
      `GET /v1/coordination/threads?tag=data&created_by=${a}&contract_id=ctr_1`,
      'GET /v1/coordination/threads/thr_1',
      `GET /v1/coordination/threads/thr_1/posts?author=${a}&attachment=${encodeURIComponent(SHA)}`,
      `GET /v1/price-index?window=30d&as_of=${t}&include_sandbox=true&tag=nlp`,
      'GET /v1/task-tape?window=1d&include_sandbox=false',
      'GET /v1/contracts/resale-lineage/review-decisions?status=pending&contract_id=ctr_1',
      'GET /v1/contracts/resale-lineage/review-decisions/rld_1',
    ]);
  });

  it('walks every contract template page', async () => {
    server.respond(json(200, { data: [{ template_id: 'a' }], next_cursor: 'c2' }), json(200, { data: [{ template_id: 'b' }], next_cursor: null }));
    const ids: string[] = [];
    for await (const tpl of client.templates.iterateContracts({ tag: 'code' })) ids.push(tpl.template_id);
    expect(ids).toEqual(['a', 'b']);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/contract-templates?tag=code', '/v1/contract-templates?cursor=c2&tag=code']);
  });

  it('turns a 503 read_only and a 409 invalid_state into ExchangeApiError with their codes', async () => {
    server.respond(problem(503, 'read_only', 'the exchange is in read-only mode'));
    await expect(client.coordination.createThread({ title: 't' })).rejects.toMatchObject({ status: 503, code: 'read_only' });
    server.respond(problem(409, 'invalid_state', 'decided', { current: 'approved', wanted: 'rejected' }));
    const err = await client.resaleReviews.decide('rld_1', { decision: 'reject', reason: 'r' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });
});
