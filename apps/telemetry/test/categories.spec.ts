import { createServiceClient, errorInfoFromGrpc, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Events, telemetryV1 } from '@exchange/proto';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { readTelemetryConfig, startTelemetry, type TelemetryHandle } from '../src/index';
import { ingestEvents } from '../src/ingest/event-store.repo';
import pg from 'pg';
import { contractEvent, envelope, newParties, publicFixtures } from './ingest-fixtures';

// ListCategories / ListCategoryObjects over gRPC against telemetry on its own database, the
// categories filled by ingesting contract.created, listing.created and thread.created events.

const OPERATOR: telemetryV1.Actor = { agentId: '', operator: true };
const AGENT: telemetryV1.Actor = { agentId: 'sandbox:agent:reader', operator: false };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return errorInfoFromGrpc(err as never)?.code ?? String(err);
  }
}

describe('categories (gRPC)', () => {
  let db: TestDatabase;
  let telemetry: TelemetryHandle;
  let client: PromiseClient<typeof telemetryV1.TelemetryServiceService>;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('telemetry_categories');
    telemetry = await startTelemetry(readTelemetryConfig({ DATABASE_URL: db.url, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), { logger: testLogger });
    client = createServiceClient(telemetryV1.TelemetryServiceService, `127.0.0.1:${telemetry.grpcPort}`);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Three contracts tagged vision (one also labeling), a vision listing, a thread tagged vision + coordination.
    const ps = [0, 1, 2].map((i) => ({ ...newParties(`cat${i}`), at: new Date(Date.UTC(2026, 10, 2 + i)) }));
    const events = ps.map((p, i) => contractEvent(p, 'created', { tags: i === 0 ? ['vision', 'labeling'] : ['vision'], sandbox: i !== 2 }));
    const fx = publicFixtures(ps[0]);
    const listingAt = new Date(Date.UTC(2026, 10, 10));
    events.push(
      envelope('exchange.market.listing.created', 'lst_cat', marketV1Events.ListingCreated.toJSON({
        listing: { listingId: 'lst_cat', sellerId: ps[0].seller, title: 'Labels fast', description: '', tags: ['vision'], price: { amount: '3', currency: 'CREDIT' }, createdAt: listingAt, updatedAt: listingAt },
      }), listingAt),
      fx['exchange.market.thread.created'],
      // Not a source of categories: a later snapshot of a contract, an offer.
      contractEvent(ps[1], 'awarded', { status: marketV1.ContractStatus.CONTRACT_STATUS_AWARDED, tags: ['vision', 'late'], minutes: 5 }),
      fx['exchange.market.offer.submitted'],
    );
    await ingestEvents(pool, events);
  });
  afterAll(async () => {
    await pool?.end();
    await telemetry?.stop();
    await db?.drop();
  });

  it('lists tags in order with counts by kind and first/last seen, page by page', async () => {
    const first = await client.listCategories({ actor: AGENT, page: { limit: 2, cursor: '' } });
    expect(first.categories.map((c) => c.tag)).toEqual(['coordination', 'labeling']);
    expect(first.page!.nextCursor).not.toBe('');
    const second = await client.listCategories({ actor: OPERATOR, page: { limit: 2, cursor: first.page!.nextCursor } });
    expect(second.page!.nextCursor).toBe('');
    expect(second.categories).toEqual([
      {
        tag: 'vision', objectCount: '5', contractCount: '3', listingCount: '1',
        firstSeenAt: new Date('2026-11-02T00:00:00.000Z'), lastSeenAt: new Date('2026-11-10T00:00:00.000Z'),
      },
    ]);
    expect(first.categories[0]).toMatchObject({ tag: 'coordination', objectCount: '1', contractCount: '0', listingCount: '0' });
  });

  it('lists the objects of a tag newest first, filtered by kind, paged', async () => {
    const all = await client.listCategoryObjects({ actor: AGENT, tag: 'vision', page: { limit: 3, cursor: '' } });
    expect(all.category).toMatchObject({ tag: 'vision', objectCount: '5' });
    expect(all.objects.map((o) => o.kind)).toEqual(['listing', 'contract', 'contract']);
    const rest = await client.listCategoryObjects({ actor: AGENT, tag: 'vision', page: { limit: 3, cursor: all.page!.nextCursor } });
    expect(rest.objects.map((o) => o.kind)).toEqual(['thread', 'contract']);
    expect(rest.page!.nextCursor).toBe('');
    const contracts = await client.listCategoryObjects({ actor: OPERATOR, tag: 'vision', kind: 'contract', page: { limit: 10, cursor: '' } });
    expect(contracts.objects.map((o) => [o.title, o.sandbox, o.firstSeenAt!.toISOString()])).toEqual([
      ['Label 500 images', false, '2026-11-04T00:00:00.000Z'],
      ['Label 500 images', true, '2026-11-03T00:00:00.000Z'],
      ['Label 500 images', true, '2026-11-02T00:00:00.000Z'],
    ]);
    const thread = rest.objects.find((o) => o.kind === 'thread')!;
    expect(thread).toMatchObject({ title: 'Questions', sandbox: true });
  });

  it('refuses what it cannot answer', async () => {
    expect(await code(client.listCategoryObjects({ actor: AGENT, tag: 'late', page: undefined }))).toBe('category_not_found');
    expect(await code(client.listCategoryObjects({ actor: AGENT, tag: 'Not A Tag', page: undefined }))).toBe('validation_failed');
    expect(await code(client.listCategoryObjects({ actor: AGENT, tag: 'vision', kind: 'offer', page: undefined }))).toBe('validation_failed');
    expect(await code(client.listCategoryObjects({ actor: AGENT, tag: 'vision', page: { limit: 1, cursor: 'bogus' } }))).toBe('invalid_cursor');
    const tagCursor = (await client.listCategories({ actor: AGENT, page: { limit: 1, cursor: '' } })).page!.nextCursor;
    expect(await code(client.listCategoryObjects({ actor: AGENT, tag: 'vision', page: { limit: 1, cursor: tagCursor } }))).toBe('invalid_cursor');
    expect(await code(client.listCategories({ actor: AGENT, page: { limit: 500, cursor: '' } }))).toBe('invalid_limit');
    expect(await code(client.listCategories({ actor: undefined, page: undefined }))).toBe('forbidden');
  });
});
