import { withTransaction } from '@exchange/db';
import { newEvent, type EventEnvelope } from '@exchange/events';
import { marketV1, marketV1Events } from '@exchange/proto';
import type pg from 'pg';
import { NotExactInBatch, recordBatch } from '../src/ingest/batch-store.repo';
import { ingestBatch, ingestEvents } from '../src/ingest/event-store.repo';
import { contractEvent, envelope, newParties, operatorFixtures, publicFixtures, type Parties } from './ingest-fixtures';
import { migratedStore, recorded, type StoreDb } from './ingest-support';

// The set-based batch path against its oracle: the same events recorded one by one, each in its
// own transaction, on a second store. Both must hold the same rows, in the same `seq` order.

const C = marketV1.ContractStatus;

/** Every row ingest writes, `seq` order for events (seq and recorded_at themselves differ per store). */
async function dump(pool: pg.Pool) {
  const q = async (sql: string) => (await pool.query(sql)).rows;
  return {
    events: await q('SELECT event_id, type, source, subject_id, occurred_at, actor, data, trace_id, contract_id, listing_id, public_data FROM events ORDER BY seq'),
    contracts: await q('SELECT * FROM contract_facts ORDER BY contract_id'),
    checkouts: await q('SELECT * FROM checkout_facts ORDER BY commerce_session_id'),
    purchases: await q('SELECT * FROM purchase_facts ORDER BY deal_id'),
    categories: await q('SELECT * FROM category_objects ORDER BY tag, kind, object_id'),
  };
}

const transfer = (n: number): EventEnvelope =>
  newEvent({ type: 'exchange.wallet.transfer.completed', source: 'wallet-ledger', subjectId: 'agt_a', actor: 'agt_a', data: { transfer: { transferId: `trf_${n}`, fromAgentId: 'agt_a', toAgentId: 'agt_b', amount: '0.000001', currency: 'CREDIT' } } });

/** An offer whose terms name the buyer, with no `restricted` part: only the contract facts can hide it. */
const offerNaming = (p: Parties, minutes = 1): EventEnvelope => {
  const at = new Date(p.at.getTime() + minutes * 60_000);
  return envelope('exchange.market.offer.submitted', `off_${p.contractId}_${minutes}`, marketV1Events.OfferChanged.toJSON({
    offer: { offerId: `off_${p.contractId}_${minutes}`, contractId: p.contractId, sellerId: p.seller, price: { amount: '20', currency: 'CREDIT' }, terms: `as agreed with ${p.buyer}`, status: 1, eta: at, createdAt: at, updatedAt: at },
  }), at, p.seller);
};

describe('ingestBatch (set-based) = the same events one by one', () => {
  let batched: StoreDb;
  let oneByOne: StoreDb;

  beforeAll(async () => {
    [batched, oneByOne] = await Promise.all([migratedStore('telemetry_batch'), migratedStore('telemetry_batch_oracle')]);
  });
  afterAll(async () => {
    await batched?.close();
    await oneByOne?.close();
  });

  const both = async (events: EventEnvelope[]) => {
    await ingestEvents(batched.pool, events);
    await ingestEvents(oneByOne.pool, events);
  };

  it('a varied batch (duplicates, a post after its thread, private buyers, out-of-order snapshots) stores the same rows', async () => {
    const stored = newParties('stored');
    const storedPub = publicFixtures(stored);
    const t0 = transfer(0);
    await both([storedPub['exchange.market.contract.created'], storedPub['exchange.market.thread.created'], t0]);

    const p = newParties('inbatch');
    const pub = publicFixtures(p);
    const shown = newParties('public');
    const op = operatorFixtures(p);
    const [storedOffer, earlyOffer, hiddenOffer, shownOffer] = [offerNaming(stored), offerNaming(p, 0), offerNaming(p, 2), offerNaming(shown)];
    const batch = [
      transfer(1), t0, // t0 already stored: a transfer depends on nothing, so the batch stays set-based
      storedPub['exchange.market.post.created'], storedOffer, // through the store: the thread, the private buyer
      pub['exchange.market.dispute.opened'], // before its contract: marks nothing, as one by one
      earlyOffer, // before the contract: the buyer is not known private yet (only restricted parts hide it)
      contractEvent(p, 'created'),
      hiddenOffer,
      pub['exchange.market.thread.created'], pub['exchange.market.thread.created'], pub['exchange.market.post.created'],
      contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }),
      contractEvent(p, 'settled', { status: C.CONTRACT_STATUS_SETTLED, minutes: 3 }),
      contractEvent(p, 'delivered', { status: C.CONTRACT_STATUS_DELIVERED, minutes: 2 }),
      contractEvent(p, 'disputed', { status: C.CONTRACT_STATUS_DISPUTED, minutes: 2, disputedFrom: C.CONTRACT_STATUS_DELIVERED }),
      ...op,
      pub['exchange.market.listing.created'],
      contractEvent(shown, 'created', { buyerPrivate: false }), shownOffer,
      transfer(2), transfer(1),
    ];
    expect(batch.length).toBeLessThanOrEqual(64);

    const created = await withTransaction(batched.pool, (client) => recordBatch(client, batch));
    const expected = await ingestEvents(oneByOne.pool, batch);
    expect(created).toBe(expected);
    expect(created).toBe(new Set(batch.map((e) => e.id)).size - 1);
    const got = await dump(batched.pool);
    expect(got).toEqual(await dump(oneByOne.pool));

    // What the oracle agrees on, spelled out: batch order is seq order, the post is filed, the buyer hidden.
    const firsts = [...new Map(batch.map((e) => [e.id, e])).keys()].filter((id) => id !== t0.id);
    expect(got.events.slice(-firsts.length).map((r) => r.event_id)).toEqual(firsts);
    const row = (id: string) => got.events.find((r) => r.event_id === id);
    expect(row(pub['exchange.market.post.created'].id)?.contract_id).toBe(p.contractId);
    expect(row(storedPub['exchange.market.post.created'].id)?.contract_id).toBe(stored.contractId);
    expect(JSON.stringify(row(earlyOffer.id)?.public_data)).toContain(p.buyer);
    expect(JSON.stringify(row(hiddenOffer.id)?.public_data)).not.toContain(p.buyer);
    expect(JSON.stringify(row(storedOffer.id)?.public_data)).not.toContain(stored.buyer);
    expect(JSON.stringify(row(shownOffer.id)?.public_data)).toContain(shown.buyer);
  });

  it('a redelivered batch whose events others depend on were recorded already: recorded one by one, same rows', async () => {
    const p = newParties('redelivered');
    const pub = publicFixtures(p);
    const first = [contractEvent(p, 'created'), pub['exchange.market.thread.created']];
    await ingestEvents(batched.pool, first);
    await ingestEvents(oneByOne.pool, first);
    const batch = [transfer(10), ...first, pub['exchange.market.post.created'], offerNaming(p), contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 })];
    await expect(withTransaction(batched.pool, (client) => recordBatch(client, batch))).rejects.toBeInstanceOf(NotExactInBatch);
    expect((await recorded(batched.pool, [batch[0].id])).size).toBe(0); // rolled back
    expect(await ingestBatch(batched.pool, batch)).toBe(4);
    expect(await ingestEvents(oneByOne.pool, batch)).toBe(4);
    expect(await dump(batched.pool)).toEqual(await dump(oneByOne.pool));
    expect(await ingestBatch(batched.pool, batch)).toBe(0);
    expect(await dump(batched.pool)).toEqual(await dump(oneByOne.pool));
  });

  it('a payload recording refuses (DomainError) or PostgreSQL refuses (NUL in jsonb) rolls back the whole batch', async () => {
    const good = [transfer(20), contractEvent(newParties('ok'), 'created')];
    const badAmount = contractEvent(newParties('amount'), 'created');
    (badAmount.data as { contract: { budget: { amount: string } } }).contract.budget.amount = 'lots';
    await expect(ingestBatch(batched.pool, [...good, badAmount])).rejects.toMatchObject({ code: 'invalid_amount' });
    const nul = transfer(21);
    (nul.data as { transfer: { memo: string } }).transfer.memo = 'a\u0000b';
    await expect(ingestBatch(batched.pool, [...good, nul])).rejects.toMatchObject({ code: '22P05' });
    expect((await recorded(batched.pool, [...good, badAmount, nul].map((e) => e.id))).size).toBe(0);
  });
});
