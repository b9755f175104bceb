import { PUBLIC_EVENT_TYPES, publicView } from '../src/domain/public-view';
import { ingestEvents } from '../src/ingest/event-store.repo';
import { PRIVATE_BUYER_MARK } from '../src/domain/public-alias';
import { newParties, operatorFixtures, publicFixtures } from './ingest-fixtures';
import { migratedStore, type StoreDb } from './ingest-support';

// Issue 18: walk every public event type for a contract whose buyer is private (its id in the
// restricted part AND where older producers put it: contract.buyer_id, dispute.opened_by,
// thread.created_by, post.author, the verifier of a buyer-verified report, the envelope actor,
// notes) and prove the id appears nowhere in what a stranger can read; operator-only types have no
// public view at all.

const p = newParties('redact');
const fixtures = publicFixtures(p);
const operatorOnly = operatorFixtures(p);
// Public objects not about the contract: nothing of the buyer's in them to begin with.
const BUYER_FREE = ['exchange.market.offer.submitted', 'exchange.market.offer.awarded', 'exchange.market.offer.withdrawn', 'exchange.market.listing.created', 'exchange.market.verifier.registered', 'exchange.market.verifier_listing.created', 'exchange.market.fixture.indexed'];

describe('public projection: no private party anywhere', () => {
  it('has a fixture for every public type, and no fixture of a type that is not public', () => {
    expect(Object.keys(fixtures).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
  });

  it.each([...PUBLIC_EVENT_TYPES])('%s shows no private buyer id', (type) => {
    const event = fixtures[type];
    expect(event).toBeDefined();
    // Where the buyer has a part (every contract-bound type), the fixture does carry its id.
    if (BUYER_FREE.includes(type)) expect(JSON.stringify(event)).not.toContain(p.buyer);
    else expect(JSON.stringify(event)).toContain(p.buyer);
    const view = publicView(event, { privateParties: [p.buyer] });
    expect(view).not.toBeNull();
    const text = JSON.stringify(view);
    expect(text).not.toContain(p.buyer);
    expect(text).not.toMatch(/"(restricted|actor|cancelReason|correctionReason|correctionReceiptId|holdId|receiptId|payloadJson|summary|rationale|evidenceRefs|resolvedBy|decidedBy|detailsJson|setBy|operator|reason)":/);
    expect(Object.keys(view!).length).toBeGreaterThan(0);
  });

  it('events carrying the restricted part need no context to hide the buyer', () => {
    for (const type of ['exchange.market.contract.settled', 'exchange.market.dispute.opened', 'exchange.market.thread.created', 'exchange.market.post.created']) {
      expect(JSON.stringify(publicView(fixtures[type]))).not.toContain(p.buyer);
    }
  });

  it('keeps what a stranger may read: the alias, the offer price, the outcome', () => {
    const contract = publicView(fixtures['exchange.market.contract.awarded'])!.contract as Record<string, unknown>;
    expect(contract).toMatchObject({ buyerAlias: p.alias, buyerPrivate: true, sellerId: p.seller, price: { amount: '20', currency: 'CREDIT' } });
    expect(contract.buyerId).toBeUndefined();
    expect(contract.holdId).toBeUndefined();
    expect(publicView(fixtures['exchange.market.offer.submitted'])!.offer).toMatchObject({ price: { amount: '20', currency: 'CREDIT' }, terms: 'two rounds' });
    expect(publicView(fixtures['exchange.market.dispute.resolved'])!.dispute).toMatchObject({ outcome: 'DISPUTE_OUTCOME_SPLIT', sellerShareBps: 5000 });
    expect(publicView(fixtures['exchange.market.integrity.kill_switch_set'])).toEqual({
      audit: { action: 'kill_switch_set', subject: 'awards', createdAt: '2026-11-02T10:09:00.000Z' },
      integrity: { state: 'INTEGRITY_STATE_RESTRICTED', since: '2026-11-02T10:09:00.000Z', killSwitches: [{ name: 'awards', enabled: true, updatedAt: '2026-11-02T10:09:00.000Z' }] },
    });
  });

  it.each(operatorOnly.map((e) => [e.type, e] as const))('%s is operator-only: no public view', (_type, event) => {
    expect(publicView(event, { privateParties: [p.buyer] })).toBeNull();
  });
});

describe('event store: public_data of every public type, null for operator-only types', () => {
  let store: StoreDb;
  beforeAll(async () => {
    store = await migratedStore('telemetry_redaction');
  });
  afterAll(async () => {
    await store?.close();
  });

  it('stores no private buyer id in public_data; the operator data stays complete', async () => {
    // contract.created first, as the market publishes it: later events learn the private buyer from the facts.
    const ordered = [fixtures['exchange.market.contract.created'], ...Object.values(fixtures).filter((e) => e.type !== 'exchange.market.contract.created'), ...operatorOnly];
    expect(await ingestEvents(store.pool, ordered)).toBe(ordered.length);
    const { rows } = await store.pool.query<{ type: string; data: unknown; public_data: unknown }>('SELECT type, data, public_data FROM events ORDER BY seq');
    expect(rows.map((r) => r.type)).toEqual(ordered.map((e) => e.type));
    for (const row of rows) {
      if (PUBLIC_EVENT_TYPES.includes(row.type)) {
        expect(row.public_data).not.toBeNull();
        expect(JSON.stringify(row.public_data)).not.toContain(p.buyer);
      } else {
        expect(row.public_data).toBeNull();
      }
    }
    // The buyer-verified report names no restricted part: the contract's facts told ingest who the private buyer is.
    const report = rows.find((r) => r.type === 'exchange.market.verification.submitted')!;
    expect(JSON.stringify(report.data)).toContain(p.buyer);
    expect((report.public_data as { report: { verifierId: string } }).report.verifierId).toBe(PRIVATE_BUYER_MARK);
  });
});
