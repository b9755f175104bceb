import { status } from '@grpc/grpc-js';
import { newEvent } from '@exchange/events';
import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Catalog, registryV1, registryV1Events } from '@exchange/proto';
import { contractInput, grpcError, offerInput, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

type CatalogClient = PromiseClient<typeof marketV1Catalog.MarketCatalogServiceService>;

const page = (limit = 0, cursor = '') => ({ limit, cursor });

describe('market catalog: templates, template inheritance, fixtures index (gRPC)', () => {
  let h: MarketHarness;
  let catalog: CatalogClient;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_catalog_fixtures' });
    catalog = createServiceClient(marketV1Catalog.MarketCatalogServiceService, `127.0.0.1:${h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    catalog?.close();
    await h?.close();
  });

  // ---- registry events, as the registry publishes them ----

  let objectSeq = 0;
  /** Publishes exchange.registry.object.stored for an object and waits until the market's consumer processed it. */
  async function storeObject(payload: unknown, opts: { type?: string; visibility?: registryV1.Visibility; signer?: string; tags?: string[] } = {}) {
    const objectId = `sha256:${(++objectSeq).toString(16).padStart(64, '0')}`;
    const object: registryV1.RegistryObject = {
      objectId,
      type: opts.type ?? 'fixture',
      payloadJson: JSON.stringify(payload),
      signerAgentId: opts.signer ?? 'test:agent:fixture-author',
      signature: 'c2ln',
      signerPublicKey: 'a2V5',
      visibility: opts.visibility ?? registryV1.Visibility.VISIBILITY_PUBLIC,
      parties: [],
      tags: opts.tags ?? ['ci'],
      createdAt: new Date(Date.UTC(2026, 10, 22, 0, 0, objectSeq)),
    };
    const event = newEvent({ type: 'exchange.registry.object.stored', source: 'registry', subjectId: objectId, data: registryV1Events.ObjectStored.toJSON({ object }) });
    await h.bus.publish(event);
    for (let i = 0; i < 400; i++) {
      const { rowCount } = await h.marketSql.query('SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2', ['market-fixtures', event.id]);
      if (rowCount === 1) return { objectId, event };
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`event ${event.id} was not consumed`);
  }

  const fixture = (fixtureId: string, over: Record<string, unknown> = {}) => ({
    fixture_id: fixtureId,
    type: 'unit_tests',
    evidence_tier: 'reproducible',
    determinism_class: 'deterministic',
    spec: { command: 'npm test', expect: { failed: 0 } },
    ...over,
  });

  describe('fixtures index', () => {
    it('should index a public fixture object from the registry event, with its event in the outbox', async () => {
      const { objectId } = await storeObject(fixture('sorting.unit-tests'), { tags: ['sorting', 'ci'] });
      const { fixtures } = await catalog.listFixtures({ page: undefined, fixtureId: 'sorting.unit-tests' });
      expect(fixtures).toEqual([
        {
          fixtureId: 'sorting.unit-tests',
          type: 'unit_tests',
          evidenceTier: 'reproducible',
          determinismClass: 'deterministic',
          specJson: '{"command":"npm test","expect":{"failed":0}}',
          objectId,
          signerAgentId: 'test:agent:fixture-author',
          tags: ['sorting', 'ci'],
          createdAt: expect.any(Date),
        },
      ]);
      const events = (await h.outbox('sorting.unit-tests')).filter((e) => e.type === 'exchange.market.fixture.indexed');
      expect(events).toHaveLength(1);
      expect(events[0].data.fixture).toMatchObject({ fixtureId: 'sorting.unit-tests', objectId, type: 'unit_tests' });
    });

    it('should keep the first object of a fixture_id and ignore a later one', async () => {
      const first = await storeObject(fixture('dup.fixture'));
      await storeObject(fixture('dup.fixture', { type: 'benchmark', spec: { other: true } }));
      const { fixtures } = await catalog.listFixtures({ page: undefined, fixtureId: 'dup.fixture' });
      expect(fixtures.map((f) => [f.objectId, f.type])).toEqual([[first.objectId, 'unit_tests']]);
      expect((await h.outbox('dup.fixture')).filter((e) => e.type === 'exchange.market.fixture.indexed')).toHaveLength(1);
    });

    it('should index neither non-public, malformed nor other objects', async () => {
      await storeObject(fixture('private.fixture'), { visibility: registryV1.Visibility.VISIBILITY_PARTIES });
      await storeObject(fixture('bad.fixture', { determinism_class: 'flaky' }));
      await storeObject(fixture('note.fixture'), { type: 'note' });
      for (const id of ['private.fixture', 'bad.fixture', 'note.fixture']) {
        expect((await catalog.listFixtures({ page: undefined, fixtureId: id })).fixtures).toEqual([]);
      }
    });

    it('should filter by type, evidence tier and determinism class, newest first and paginated', async () => {
      await storeObject(fixture('f.golden', { type: 'golden_output', evidence_tier: 'attested', determinism_class: 'bounded' }));
      await storeObject(fixture('f.bench', { type: 'benchmark', evidence_tier: 'self_reported', determinism_class: 'nondeterministic' }));
      await storeObject(fixture('f.golden2', { type: 'golden_output', evidence_tier: 'verifier_checked', determinism_class: 'bounded' }));
      const ids = async (req: Partial<marketV1Catalog.ListFixturesRequest>) =>
        (await catalog.listFixtures(marketV1Catalog.ListFixturesRequest.fromPartial(req))).fixtures.map((f) => f.fixtureId);
      expect(await ids({ type: 'golden_output' })).toEqual(['f.golden2', 'f.golden']);
      expect(await ids({ evidenceTier: 'attested' })).toEqual(['f.golden']);
      expect(await ids({ determinismClass: 'nondeterministic' })).toEqual(['f.bench']);
      expect(await ids({ type: 'golden_output', evidenceTier: 'verifier_checked', determinismClass: 'bounded' })).toEqual(['f.golden2']);

      const all = await ids({});
      const walked: string[] = [];
      let cursor = '';
      do {
        const res = await catalog.listFixtures(marketV1Catalog.ListFixturesRequest.fromPartial({ page: page(2, cursor) }));
        walked.push(...res.fixtures.map((f) => f.fixtureId));
        cursor = res.page!.nextCursor;
      } while (cursor !== '');
      expect(walked).toEqual(all);
      expect(all.slice(0, 3)).toEqual(['f.golden2', 'f.bench', 'f.golden']);
    });

    it('should refuse a filter value outside its enum with 400 naming it', async () => {
      for (const [req, field] of [
        [{ type: 'smoke' }, 'type'],
        [{ evidenceTier: 'gold' }, 'evidence_tier'],
        [{ determinismClass: 'random' }, 'determinism_class'],
        [{ fixtureId: 'Not An Id' }, 'fixture_id'],
      ] as const) {
        expect(await grpcError(catalog.listFixtures(marketV1Catalog.ListFixturesRequest.fromPartial(req)))).toMatchObject({
          grpcCode: status.INVALID_ARGUMENT,
          code: 'validation_failed',
          details: { field },
        });
        expect(await grpcError(catalog.listFixtureSellers(marketV1Catalog.ListFixtureSellersRequest.fromPartial(req)))).toMatchObject({
          code: 'validation_failed',
          details: { field },
        });
      }
    });

    it('should let a contract name an indexed fixture', async () => {
      const buyer = h.newAgent('fx-buyer');
      const { contract } = await h.client.createContract(contractInput({ fixtureId: 'sorting.unit-tests' }), h.as(buyer));
      expect(contract!.fixtureId).toBe('sorting.unit-tests');
    });
  });

  describe('fixture sellers', () => {
    const checks = [{ name: 'suite', ok: true }];
    const judge = async (contractId: string, buyer: TestAgent, seller: TestAgent, verdict: 'pass' | 'fail') => {
      const { result } = await h.client.submitResult(
        { contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
        h.as(seller),
      );
      const resultId = result!.resultId;
      h.clock.advance(1000); // distinct report times: the ranking's tie-break is the latest pass
      await h.client.submitVerification(
        {
          contractId,
          verifierId: '',
          resultId,
          verdict: verdict === 'pass' ? marketV1.Verdict.VERDICT_PASS : marketV1.Verdict.VERDICT_FAIL,
          score: 1,
          checks,
          signature: h.signReport(buyer, { verifierId: buyer.agentId, resultId, verdict, score: 1, checks }),
          idempotencyKey: '',
        },
        h.as(buyer),
      );
    };
    /** An awarded contract naming `fixtureId` (or none) for `seller`. */
    const awardTo = async (seller: TestAgent, fixtureId: string | undefined) => {
      const buyer = h.newAgent('fs-buyer');
      await h.fund(buyer.agentId, '20');
      const { contract } = await h.client.createContract(contractInput({ budget: { amount: '10', currency: 'CREDIT' }, fixtureId }), h.as(buyer));
      const { offer } = await h.client.submitOffer(offerInput(contract!.contractId, { price: { amount: '10', currency: 'CREDIT' } }), h.as(seller));
      await h.client.awardOffer({ contractId: contract!.contractId, offerId: offer!.offerId, idempotencyKey: '' }, h.operator());
      return { buyer, contractId: contract!.contractId };
    };
    const sellers = (req: Partial<marketV1Catalog.ListFixtureSellersRequest>) => catalog.listFixtureSellers(marketV1Catalog.ListFixtureSellersRequest.fromPartial(req));

    let a: TestAgent, b: TestAgent, c: TestAgent, d: TestAgent;
    beforeAll(async () => {
      await storeObject(fixture('rank.one', { type: 'property_tests', evidence_tier: 'verifier_checked' }));
      await storeObject(fixture('rank.two', { type: 'schema_validation', evidence_tier: 'attested' }));
      [a, b, c, d] = [h.newAgent('seller-a'), h.newAgent('seller-b'), h.newAgent('seller-c'), h.newAgent('seller-d')];
      // a: rank.one fail then pass, rank.two pass → 2 passed, 1 failed
      const a1 = await awardTo(a, 'rank.one');
      await judge(a1.contractId, a1.buyer, a, 'fail');
      await judge(a1.contractId, a1.buyer, a, 'pass');
      const a2 = await awardTo(a, 'rank.two');
      await judge(a2.contractId, a2.buyer, a, 'pass');
      // c: one pass on rank.two, and a pass on a contract without a fixture (not counted)
      const c1 = await awardTo(c, 'rank.two');
      await judge(c1.contractId, c1.buyer, c, 'pass');
      const c2 = await awardTo(c, undefined);
      await judge(c2.contractId, c2.buyer, c, 'pass');
      // b: two passes on rank.one, the latest of all → ahead of a on the tie
      for (let i = 0; i < 2; i++) {
        const b1 = await awardTo(b, 'rank.one');
        await judge(b1.contractId, b1.buyer, b, 'pass');
      }
      // d: only a failure → not listed
      const d1 = await awardTo(d, 'rank.one');
      await judge(d1.contractId, d1.buyer, d, 'fail');
    }, 120_000);

    const mine = (list: marketV1Catalog.FixtureSeller[]) => list.filter((s) => [a, b, c, d].some((x) => x.agentId === s.sellerId));

    it('should rank sellers by passed verifications, then the latest pass, with their failures and fixtures', async () => {
      const { sellers: list } = await sellers({ page: page(200) });
      expect(mine(list).map((s) => [s.sellerId, s.passedVerifications, s.failedVerifications, s.fixtureIds])).toEqual([
        [b.agentId, 2, 0, ['rank.one']],
        [a.agentId, 2, 1, ['rank.one', 'rank.two']],
        [c.agentId, 1, 0, ['rank.two']],
      ]);
      const [sb, sa] = mine(list);
      expect(sb.lastPassedAt!.getTime()).toBeGreaterThan(sa.lastPassedAt!.getTime());
    });

    it('should count only contracts whose fixture matches the filters', async () => {
      const byFixture = await sellers({ fixtureId: 'rank.two' });
      expect(byFixture.sellers.map((s) => [s.sellerId, s.passedVerifications, s.failedVerifications])).toEqual([
        [c.agentId, 1, 0],
        [a.agentId, 1, 0],
      ]);
      const byType = await sellers({ type: 'property_tests' });
      expect(byType.sellers.map((s) => [s.sellerId, s.passedVerifications, s.failedVerifications])).toEqual([
        [b.agentId, 2, 0],
        [a.agentId, 1, 1],
      ]);
      expect((await sellers({ evidenceTier: 'attested', determinismClass: 'deterministic' })).sellers.map((s) => s.sellerId)).toEqual([c.agentId, a.agentId]);
      expect((await sellers({ determinismClass: 'bounded' })).sellers).toEqual([]);
    });

    it('should page through the ranking with a cursor and refuse a foreign cursor', async () => {
      const full = (await sellers({ page: page(200) })).sellers.map((s) => s.sellerId);
      const walked: string[] = [];
      let cursor = '';
      do {
        const res = await sellers({ page: page(1, cursor) });
        expect(res.sellers.length).toBeLessThanOrEqual(1);
        walked.push(...res.sellers.map((s) => s.sellerId));
        cursor = res.page!.nextCursor;
      } while (cursor !== '');
      expect(walked).toEqual(full);
      const fixturesCursor = (await catalog.listFixtures(marketV1Catalog.ListFixturesRequest.fromPartial({ page: page(1) }))).page!.nextCursor;
      expect(await grpcError(sellers({ page: page(1, fixturesCursor) }))).toMatchObject({ code: 'invalid_cursor' });
    });
  });
});
