import { withTransaction } from '@exchange/db';
import { newEvent, type EventBus, type EventEnvelope, type SubscribeOptions, type Subscription } from '@exchange/events';
import { marketV1, marketV1Events, registryV1, registryV1Events } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import type pg from 'pg';
import { NotExactInBatch, recordBatch } from '../src/ingest/batch-store.repo';
import { startEventConsumer } from '../src/ingest/event-consumer.handlers';
import { ingestBatch, ingestEvents } from '../src/ingest/event-store.repo';
import { contractEvent, envelope, newParties, operatorFixtures, publicFixtures, type ContractOptions, type Parties } from './ingest-fixtures';
import { migratedStore, recorded, type StoreDb } from './ingest-support';

// The set-based batch path against its oracle: the same events recorded one by one, each in its
// own transaction, on a second store. Both must hold the same rows, in the same `seq` order.
// A varied batch, fixed edge cases, then seeded random streams (each seed on emptied stores of
// its own; TELEMETRY_BATCH_SEED=<seed> replays one).

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

/** A thread of `p`'s contract with a given id (several contracts may claim one subject). */
const threadOf = (p: Parties, threadId: string, minutes = 7): EventEnvelope => {
  const at = new Date(p.at.getTime() + minutes * 60_000);
  return envelope('exchange.market.thread.created', threadId, marketV1Events.ThreadCreated.toJSON({
    thread: { threadId, title: `Questions on ${p.contractId}`, tags: ['coordination'], createdBy: p.buyer, contractId: p.contractId, postCount: 0, createdAt: at, updatedAt: at },
  }), at, p.buyer);
};
const postIn = (threadId: string, postId: string, author = 'agt_poster'): EventEnvelope =>
  envelope('exchange.market.post.created', postId, marketV1Events.PostCreated.toJSON({
    post: { postId, threadId, author, body: 'a post', attachments: [], createdAt: new Date('2026-11-02T10:08:00.000Z') },
  }), new Date('2026-11-02T10:08:00.000Z'), author);

/** An artifact of `p`'s contract uploaded, and delivered (a delivery names only the artifact). */
const artifactOf = (p: Parties, ref: string) => ({
  uploaded: envelope('exchange.registry.artifact.uploaded', ref, registryV1Events.ArtifactChanged.toJSON({
    artifact: registryV1.Artifact.fromPartial({ artifactRef: ref, sizeBytes: '10', mediaType: 'text/plain', contractId: p.contractId, parties: [p.buyer, p.seller], uploadedBy: p.seller, createdAt: p.at, updatedAt: p.at }),
  }), p.at, p.seller),
  delivered: envelope('exchange.registry.artifact.delivered', ref, registryV1Events.ArtifactDelivered.toJSON({
    receipt: { deliveryReceiptId: `dr_${ref}`, artifactRef: ref, agentId: p.buyer, sizeBytes: '10', deliveredAt: p.at, signature: 's', signerPublicKey: 'k' },
  }), p.at, p.buyer),
});

/** A contract snapshot that names no buyer (no `restricted` part, no contract.buyerId): the upsert keeps the stored one. */
const withoutBuyer = (e: EventEnvelope): EventEnvelope => {
  const data = structuredClone(e.data) as { contract: { buyerId?: string }; restricted?: unknown };
  delete data.restricted;
  delete data.contract.buyerId;
  return { ...e, data };
};

const publicText = (row: { public_data: unknown } | undefined) => JSON.stringify(row?.public_data);

/** The durable consumer's two entry points on `pool`, taken from the bus it subscribes to, and its error log. */
async function consumerOn(pool: pg.Pool) {
  let opts: SubscribeOptions | undefined;
  const bus = { subscribe: async (o: SubscribeOptions) => ((opts = o), { stop: async () => undefined } as unknown as Subscription) } as unknown as EventBus;
  const logger = testLogger.child({});
  const errors = jest.spyOn(logger, 'error');
  await startEventConsumer({ bus, pool: pool as pg.Pool, logger, notify: () => undefined });
  if (opts?.batch === undefined) throw new Error('the consumer subscribed without a batch handler');
  return { one: opts.handler, batch: opts.batch.handler, errors };
}

/** A pool whose connections count their transactions and statements. */
function counting(pool: pg.Pool) {
  const counts = { connects: 0, queries: 0 };
  const connect = async () => {
    counts.connects++;
    const client = await pool.connect();
    return new Proxy(client, {
      get(target, key) {
        if (key === 'query') return (...args: unknown[]) => (counts.queries++, (target.query as (...a: unknown[]) => unknown).apply(target, args));
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { counts, pool: { connect } as unknown as pg.Pool };
}

/** mulberry32: a small deterministic PRNG, so a failing seed replays exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Batches as the bus could hand them out for `seed`: contract lifecycles with extra snapshots
 * (private or public at random, some naming no buyer, timestamps often equal), offers naming the
 * buyer, threads (some claimed by two contracts) and posts, artifacts (one ref uploaded by several
 * contracts) and deliveries, the operator-only fixtures and transfers, all shuffled; ~10% repeated;
 * cut into batches of 1–20, ~20% of them after a redelivered prefix of the previous batch.
 */
function randomBatches(seed: number): EventEnvelope[][] {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  const events: EventEnvelope[] = [];
  const sharedRef = `sha256:shared_${seed}`;
  const parties: Parties[] = [];
  // Few contracts at a time, so a batch often holds several events of one contract.
  for (let c = 0; c < 3; c++) {
    const p: Parties = { contractId: `ctr_s${seed}_${c}`, buyer: `agt_buyer_s${seed}_${c}`, seller: `agt_seller_s${seed}_${c}`, alias: 'anon:abcdefghijkl', at: new Date(Date.UTC(2026, 10, 2, 10, int(0, 2))) };
    parties.push(p);
    const snapshot = (verb: string, o: ContractOptions) => {
      const e = contractEvent(p, verb, { buyerPrivate: rnd() < 0.5, ...o });
      return rnd() < 0.25 ? withoutBuyer(e) : e;
    };
    events.push(
      snapshot('created', {}),
      snapshot('awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }),
      snapshot('delivered', { status: C.CONTRACT_STATUS_DELIVERED, minutes: 2 }),
      snapshot('settled', { status: C.CONTRACT_STATUS_SETTLED, minutes: 3 }),
    );
    // Extra snapshots, their updated_at often equal to another's.
    for (let k = int(1, 5); k > 0; k--) {
      const [verb, status] = pick([['awarded', C.CONTRACT_STATUS_AWARDED], ['delivered', C.CONTRACT_STATUS_DELIVERED], ['disputed', C.CONTRACT_STATUS_DISPUTED], ['buyer_alias_updated', C.CONTRACT_STATUS_AWARDED]] as const);
      events.push(snapshot(verb, { status, minutes: int(0, 3), disputedFrom: verb === 'disputed' ? C.CONTRACT_STATUS_DELIVERED : undefined }));
    }
    for (let k = int(2, 5); k > 0; k--) events.push(offerNaming(p, int(0, 4)));
    const pub = publicFixtures(p);
    events.push(
      pub['exchange.market.thread.created'], pub['exchange.market.post.created'], postIn(`thr_${p.contractId}`, `pst_s${seed}_${c}_2`),
      pub['exchange.market.dispute.opened'], pub['exchange.market.result.submitted'], pub['exchange.market.listing.created'],
      ...operatorFixtures(p).filter(() => rnd() < 0.5),
      transfer(seed * 1000 + c),
    );
    const own = artifactOf(p, `sha256:s${seed}_${c}`);
    events.push(own.uploaded, own.delivered);
    if (rnd() < 0.5) events.push(artifactOf(p, sharedRef).uploaded);
    if (rnd() < 0.5) events.push(artifactOf(p, sharedRef).delivered);
    // Another contract claims this one's thread id: the first event with the subject decides.
    if (c > 0 && rnd() < 0.6) {
      const other = pick(parties.slice(0, c));
      events.push(threadOf(p, `thr_${other.contractId}`), postIn(`thr_${other.contractId}`, `pst_s${seed}_${c}_3`));
    }
  }
  // Deterministic ids (the fixtures draw random ones), then shuffle.
  const stream = events.map((e, n) => ({ ...e, id: `evt_s${seed}_${n}` }));
  for (let i = stream.length - 1; i > 0; i--) {
    const j = int(0, i);
    [stream[i], stream[j]] = [stream[j], stream[i]];
  }
  for (const e of [...stream]) if (rnd() < 0.1) stream.splice(int(0, stream.length), 0, e);
  const batches: EventEnvelope[][] = [];
  for (let i = 0; i < stream.length; ) {
    const size = int(1, 20);
    const previous = batches.at(-1);
    // A redelivered prefix of the previous batch (all of the new batch, at times).
    const prefix = previous !== undefined && rnd() < 0.2 ? previous.slice(0, int(1, Math.min(previous.length, size))) : [];
    const next = stream.slice(i, i + size - prefix.length);
    i += next.length;
    batches.push([...prefix, ...next]);
  }
  return batches;
}

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
    await both(first);
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
  /** Records `batch` set-based on one store and one by one on the other; both stores hold the same rows. */
  const sameAsOneByOne = async (batch: EventEnvelope[]) => {
    const created = await ingestBatch(batched.pool, batch);
    expect(created).toBe(await ingestEvents(oneByOne.pool, batch));
    const got = await dump(batched.pool);
    expect(got).toEqual(await dump(oneByOne.pool));
    return { created, row: (id: string) => got.events.find((r) => r.event_id === id) };
  };

  it('the first event of a subject is read through (subject_id, seq) in order, one by one and per batch: no sort', async () => {
    const client = await batched.pool.connect();
    try {
      await client.query('BEGIN');
      // The tables are tiny: make the planner show what it does once they are not.
      await client.query('SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off');
      const plan = async (sql: string) => (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      for (const sql of [
        "SELECT contract_id FROM events WHERE subject_id = 'thr_1' AND contract_id IS NOT NULL ORDER BY seq LIMIT 1",
        "SELECT DISTINCT ON (subject_id) subject_id, contract_id FROM events WHERE subject_id = ANY('{thr_1,thr_2}'::text[]) AND contract_id IS NOT NULL ORDER BY subject_id, seq",
      ]) {
        const shown = await plan(sql);
        expect(shown).toContain('events_subject_seq_idx');
        expect(shown).not.toMatch(/Sort/);
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('a batch redelivered whole records nothing, in one transaction, without the per-event path', async () => {
    const p = newParties('whole');
    const pub = publicFixtures(p);
    const batch = [contractEvent(p, 'created'), pub['exchange.market.thread.created'], pub['exchange.market.post.created'], offerNaming(p), transfer(30)];
    await sameAsOneByOne(batch);
    const { counts, pool } = counting(batched.pool);
    expect(await ingestBatch(pool, batch)).toBe(0);
    // BEGIN, the two look-ups, the insert, COMMIT: no second transaction, nothing per event.
    expect(counts).toEqual({ connects: 1, queries: 5 });
    await sameAsOneByOne(batch);
  });

  it('snapshots with equal updated_at and a different buyer_private: the later one wins, in the store and in the batch', async () => {
    const stored = newParties('eqstored');
    await both([contractEvent(stored, 'created', { buyerPrivate: false, minutes: 1 })]);
    const p = newParties('eq');
    const [privAgain, publicAgain, hiddenAgain] = [offerNaming(stored, 2), offerNaming(p, 3), offerNaming(p, 4)];
    const { row } = await sameAsOneByOne([
      contractEvent(stored, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }), privAgain,
      contractEvent(p, 'created', { minutes: 1 }), offerNaming(p, 2),
      contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1, buyerPrivate: false }), publicAgain,
      contractEvent(p, 'delivered', { status: C.CONTRACT_STATUS_DELIVERED, minutes: 1 }), hiddenAgain,
    ]);
    expect(publicText(row(privAgain.id))).not.toContain(stored.buyer);
    expect(publicText(row(publicAgain.id))).toContain(p.buyer);
    expect(publicText(row(hiddenAgain.id))).not.toContain(p.buyer);
  });

  it('a snapshot naming no buyer keeps the buyer known (stored or from the batch); with none known, nobody is hidden', async () => {
    const stored = newParties('nobuyerstored');
    await both([contractEvent(stored, 'created')]);
    const p = newParties('nobuyer');
    const [storedHidden, unknown, hidden] = [offerNaming(stored, 2), offerNaming(p, 1), offerNaming(p, 3)];
    const { row } = await sameAsOneByOne([
      withoutBuyer(contractEvent(stored, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 })), storedHidden,
      withoutBuyer(contractEvent(p, 'created')), unknown,
      contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 }),
      withoutBuyer(contractEvent(p, 'delivered', { status: C.CONTRACT_STATUS_DELIVERED, minutes: 2 })), hidden,
    ]);
    expect(publicText(row(storedHidden.id))).not.toContain(stored.buyer);
    expect(publicText(row(unknown.id))).toContain(p.buyer);
    expect(publicText(row(hidden.id))).not.toContain(p.buyer);
  });

  it('private, then public: a public event after the public snapshot shows the buyer (stored or in the batch)', async () => {
    const stored = newParties('topublicstored');
    await both([contractEvent(stored, 'created')]);
    const p = newParties('topublic');
    const [before, after, inBatch] = [offerNaming(stored, 1), offerNaming(stored, 3), offerNaming(p, 3)];
    const { row } = await sameAsOneByOne([
      before, contractEvent(stored, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 2, buyerPrivate: false }), after,
      contractEvent(p, 'created'), contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 2, buyerPrivate: false }), inBatch,
    ]);
    expect(publicText(row(before.id))).not.toContain(stored.buyer);
    expect(publicText(row(after.id))).toContain(stored.buyer);
    expect(publicText(row(inBatch.id))).toContain(p.buyer);
  });

  it('a delivery whose artifact is already in the store takes its contract', async () => {
    const p = newParties('artifact');
    const { uploaded, delivered } = artifactOf(p, `sha256:stored_${p.contractId}`);
    await both([uploaded]);
    const { row } = await sameAsOneByOne([transfer(40), delivered]);
    expect(row(delivered.id)?.contract_id).toBe(p.contractId);
  });

  it('a subject in the store and again earlier in the batch under another contract: the stored one decides', async () => {
    const [a, b] = [newParties('subja'), newParties('subjb')];
    const threadId = `thr_shared_${a.contractId}`;
    const ref = `sha256:shared_${a.contractId}`;
    await both([threadOf(a, threadId), artifactOf(a, ref).uploaded]);
    const post = postIn(threadId, `pst_${a.contractId}`);
    const { delivered } = artifactOf(b, ref);
    const { row } = await sameAsOneByOne([threadOf(b, threadId), artifactOf(b, ref).uploaded, post, delivered]);
    expect(row(post.id)?.contract_id).toBe(a.contractId);
    expect(row(delivered.id)?.contract_id).toBe(a.contractId);
  });

  it('unusual strings (quotes, backslashes, braces, commas, "NULL", non-ASCII, astral) in ids, subjects and data', async () => {
    const odd = `q"u'o\\te{b,r}a NULL é ∅ 😀 ${newParties('odd').contractId}`;
    const p: Parties = { ...newParties('odd'), contractId: `ctr_${odd}`, buyer: `agt_${odd}`, seller: `agt_s_${odd}` };
    const storedThread = threadOf(p, `thr_stored_${odd}`);
    await both([{ ...contractEvent(p, 'created'), id: `evt_${odd}_0`, actor: odd, trace_id: odd }, { ...storedThread, id: 'NULL' }]);
    const batch = [
      { ...transfer(50), id: `evt_${odd}_1`, subject_id: 'NULL', source: odd },
      { ...postIn(`thr_stored_${odd}`, `pst_${odd}`), id: `evt_${odd}_2` },
      { ...threadOf(p, `thr_${odd}`), id: `evt_{${odd}}` },
      { ...postIn(`thr_${odd}`, `pst2_${odd}`, p.buyer), id: `"evt_${odd}"` },
      { ...offerNaming(p, 2), id: `evt_${odd}_3`, trace_id: 'NULL' },
      { ...contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1, buyerPrivate: false, tags: [odd, 'NULL'] }), id: `evt_${odd}_4` },
      { ...offerNaming(p, 3), id: `evt_${odd}_5` },
    ];
    const { row } = await sameAsOneByOne(batch);
    expect(row(`evt_${odd}_2`)?.contract_id).toBe(p.contractId);
    expect(row(`"evt_${odd}"`)?.contract_id).toBe(p.contractId);
    expect(row(`evt_${odd}_1`)).toMatchObject({ subject_id: 'NULL', source: odd });
    expect(publicText(row(`evt_${odd}_3`))).not.toContain('agt_q');
    expect(JSON.stringify(row(`evt_${odd}_5`)?.public_data)).toContain(JSON.stringify(p.buyer).slice(1, -1));
  });

  it('a NUL in a text column (22021) rolls the whole batch back', async () => {
    const p = newParties('nultext');
    const batch = [transfer(60), contractEvent(p, 'created'), { ...offerNaming(p), subject_id: 'off_a\u0000b' }];
    await expect(ingestBatch(batched.pool, batch)).rejects.toMatchObject({ code: '22021' });
    expect((await recorded(batched.pool, batch.map((e) => e.id))).size).toBe(0);
    expect((await batched.pool.query('SELECT 1 FROM contract_facts WHERE contract_id = $1', [p.contractId])).rowCount).toBe(0);
  });

  it('a stale stateful event last in its batch still sends the batch one by one', async () => {
    const p = newParties('stalelast');
    const created = contractEvent(p, 'created');
    await both([created]);
    const batch = [transfer(70), offerNaming(p, 2), contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1, buyerPrivate: false }), created];
    await expect(withTransaction(batched.pool, (client) => recordBatch(client, batch))).rejects.toThrow(created.id);
    const { created: n } = await sameAsOneByOne(batch);
    expect(n).toBe(3);
  });

  it.each([
    ['an id', (p: Parties, n: string) => [transfer(80), { ...contractEvent(p, 'created'), id: `evt_${n}_\uD800` }, offerNaming(p)]],
    ['a subject a post names', (p: Parties, n: string) => [{ ...threadOf(p, `thr_${n}_\uFFFD`), subject_id: `thr_${n}_\uD800` }, postIn(`thr_${n}_\uFFFD`, `pst_${n}`), transfer(81)]],
  ])('a lone UTF-16 surrogate in %s: the consumer drops the envelope (logged) in a batch as one by one', async (_what, make) => {
    const p = newParties('surrogate');
    const events = make(p, p.contractId) as EventEnvelope[];
    const [set, single] = [await consumerOn(batched.pool), await consumerOn(oneByOne.pool)];
    await set.batch(events);
    for (const e of events) await single.one(e);
    expect(await dump(batched.pool)).toEqual(await dump(oneByOne.pool));
    for (const { errors } of [set, single]) {
      expect(errors).toHaveBeenCalledWith(expect.objectContaining({ reason: expect.stringMatching(/lone UTF-16 surrogate/) }), 'dropping a malformed event');
    }
    expect((await recorded(batched.pool, events.map((e) => e.id))).size).toBe(2);
  });

  describe('randomised, a seed at a time on emptied stores', () => {
    let [setBased, single]: StoreDb[] = [];
    beforeAll(async () => {
      [setBased, single] = await Promise.all([migratedStore('telemetry_batch_random'), migratedStore('telemetry_batch_random_oracle')]);
    });
    afterAll(async () => {
      await setBased?.close();
      await single?.close();
    });

    const seeds = process.env['TELEMETRY_BATCH_SEED'] ? [Number(process.env['TELEMETRY_BATCH_SEED'])] : Array.from({ length: 24 }, (_, i) => 20261125 + i);
    it.each(seeds)('against one by one: seed %i (TELEMETRY_BATCH_SEED=<seed> replays it alone)', async (seed) => {
      // Each seed starts from empty stores, so it replays alone exactly and a failure does not spill over.
      const tables = 'TRUNCATE events, contract_facts, checkout_facts, purchase_facts, category_objects';
      await Promise.all([setBased.pool.query(tables), single.pool.query(tables)]);
      for (const [i, batch] of randomBatches(seed).entries()) {
        const created = await ingestBatch(setBased.pool, batch);
        expect({ seed, batch: i, created }).toEqual({ seed, batch: i, created: await ingestEvents(single.pool, batch) });
      }
      expect(await dump(setBased.pool)).toEqual(await dump(single.pool));
    }, 30_000);
  });
});
