import { withTransaction } from '@exchange/db';
import { newEvent, type EventBus, type EventEnvelope, type SubscribeOptions, type Subscription } from '@exchange/events';
import { marketV1, marketV1Events, registryV1, registryV1Events } from '@exchange/proto';
import { prng, testLogger } from '@exchange/testing';
import type pg from 'pg';
import { classify, firstOfEachId, isStateful, resolveFilings } from '../src/domain/batch-plan';
import { inheritsContract } from '../src/domain/classify';
import { NotExactInBatch, recordBatch, STORED_VIAS } from '../src/ingest/batch-store.repo';
import { startEventConsumer } from '../src/ingest/event-consumer.handlers';
import { ingestBatch, ingestEvents, RESOLVE_VIA } from '../src/ingest/event-store.repo';
import { contractEvent, envelope, newParties, operatorFixtures, publicFixtures, type ContractOptions, type Parties } from './ingest-fixtures';
import { migratedStore, recorded, type StoreDb } from './ingest-support';

// The set-based batch path against its oracle: the same events recorded one by one, each in its
// own transaction, on a second store. Both must hold the same rows, in the same `seq` order.
// A varied batch, fixed edge cases, then seeded random streams (each seed on emptied stores of
// its own; TELEMETRY_BATCH_SEED=<seed> replays one).

const C = marketV1.ContractStatus;

/**
 * Every row ingest writes, every column (a new one is compared too), `seq` order for events: only
 * seq and recorded_at differ per store (drawn by the store: a sequence, the commit time).
 */
const DUMPED = {
  events: "SELECT to_jsonb(t) - 'seq' - 'recorded_at' AS r FROM events t ORDER BY seq",
  contract_facts: 'SELECT to_jsonb(t) AS r FROM contract_facts t ORDER BY contract_id',
  checkout_facts: 'SELECT to_jsonb(t) AS r FROM checkout_facts t ORDER BY commerce_session_id',
  purchase_facts: 'SELECT to_jsonb(t) AS r FROM purchase_facts t ORDER BY deal_id',
  category_objects: 'SELECT to_jsonb(t) AS r FROM category_objects t ORDER BY tag, kind, object_id',
};
/** Empties the tables the dump compares (each test, each seed starts from empty stores). */
const TRUNCATE = `TRUNCATE ${Object.keys(DUMPED).join(', ')}`;

async function dump(pool: pg.Pool) {
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const [table, sql] of Object.entries(DUMPED)) out[table] = (await pool.query<{ r: Record<string, unknown> }>(sql)).rows.map((row) => row.r);
  return out as Record<keyof typeof DUMPED, Array<Record<string, unknown>>>;
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

type Row = Record<string, unknown>;
const publicText = (row: Row | undefined) => JSON.stringify(row?.public_data);

/** Whether each event's stored public projection hides or shows the buyer named. */
const expectBuyers = (row: (id: string) => Row | undefined, cases: Array<[EventEnvelope, string, 'hidden' | 'shown']>) => {
  for (const [event, buyer, seen] of cases) {
    expect({ event: event.id, buyer, seen: publicText(row(event.id)).includes(buyer) ? 'shown' : 'hidden' }).toEqual({ event: event.id, buyer, seen });
  }
};

/** The set-based path alone, in one transaction: a bail-out to one by one (NotExactInBatch) is thrown. */
const setBasedOnly = (pool: pg.Pool, batch: EventEnvelope[]) => withTransaction(pool, (client) => recordBatch(client, batch));

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

/**
 * Batches as the bus could hand them out for `seed`: contract lifecycles with extra snapshots
 * (private or public at random, some naming no buyer, timestamps often equal), offers naming the
 * buyer, threads (some claimed by two contracts) and posts, artifacts (one ref uploaded by several
 * contracts) and deliveries, the operator-only fixtures and transfers, all shuffled; ~10% repeated;
 * cut into batches of 1–20, ~20% of them after a redelivered prefix of the previous batch, and
 * ~8% of the time the previous batch redelivered whole. The PRNG is @exchange/testing's prng.
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
    const previous = batches.at(-1);
    if (previous !== undefined && rnd() < 0.08) {
      batches.push([...previous]);
      continue;
    }
    const size = int(1, 20);
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
  // Each fixed case on emptied stores: one divergence does not fail every later whole-dump comparison.
  beforeEach(async () => {
    await Promise.all([batched.pool.query(TRUNCATE), oneByOne.pool.query(TRUNCATE)]);
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

    const created = await setBasedOnly(batched.pool, batch);
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
    expect(publicText(row(earlyOffer.id))).toContain(p.buyer);
    expect(publicText(row(hiddenOffer.id))).not.toContain(p.buyer);
    expect(publicText(row(storedOffer.id))).not.toContain(stored.buyer);
    expect(publicText(row(shownOffer.id))).toContain(shown.buyer);
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
  /**
   * Records `batch` on one store with `record` (by default set-based only: a bail-out to one by one
   * fails the test; ingestBatch for the cases meant to fall back) and one by one on the other; both
   * stores hold the same rows.
   */
  const sameAsOneByOne = async (batch: EventEnvelope[], record: (pool: pg.Pool, batch: EventEnvelope[]) => Promise<number> = setBasedOnly) => {
    const created = await record(batched.pool, batch);
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
      const plan = async (sql: string, params: unknown[]) => (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      // The queries the code runs, with bind parameters as it runs them.
      for (const [sql, params] of [[RESOLVE_VIA, ['thr_1']], [STORED_VIAS, [['thr_1', 'thr_2']]]] as const) {
        const shown = await plan(sql, [...params]);
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
    expectBuyers(row, [[privAgain, stored.buyer, 'hidden'], [publicAgain, p.buyer, 'shown'], [hiddenAgain, p.buyer, 'hidden']]);
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
    expectBuyers(row, [[storedHidden, stored.buyer, 'hidden'], [unknown, p.buyer, 'shown'], [hidden, p.buyer, 'hidden']]);
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
    expectBuyers(row, [[before, stored.buyer, 'hidden'], [after, stored.buyer, 'shown'], [inBatch, p.buyer, 'shown']]);
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

  it('two events of one subject in the store under different contracts: a post in the batch takes the first one', async () => {
    const [a, b] = [newParties('twostoreda'), newParties('twostoredb')];
    const threadId = `thr_twice_${a.contractId}`;
    await both([threadOf(a, threadId), threadOf(b, threadId)]);
    const post = postIn(threadId, `pst_${a.contractId}`);
    const { row } = await sameAsOneByOne([transfer(45), post]);
    expect(row(post.id)?.contract_id).toBe(a.contractId);
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
    expect(publicText(row(`evt_${odd}_5`))).toContain(JSON.stringify(p.buyer).slice(1, -1));
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
    const { created: n } = await sameAsOneByOne(batch, ingestBatch);
    expect(n).toBe(3);
  });

  it.each([
    // The contract snapshot's id is the transfer's as stored: one by one it is a duplicate, folds nothing.
    ['an id', 2, (p: Parties, n: string) => [{ ...transfer(90), id: `evt_${n}_\uD800` }, { ...contractEvent(p, 'created'), id: `evt_${n}_\uFFFD` }, offerNaming(p)]],
    // The thread is stored under the subject the post names: one by one the post takes its contract.
    ['a subject a post names', 3, (p: Parties, n: string) => [{ ...threadOf(p, `thr_${n}_\uFFFD`), subject_id: `thr_${n}_\uD800` }, postIn(`thr_${n}_\uFFFD`, `pst_${n}`), transfer(91)]],
  ])('a lone UTF-16 surrogate in %s given to ingestBatch directly: recorded one by one (as stored, U+FFFD), same rows', async (_what, expected, make) => {
    const p = newParties('surrogatedirect');
    const batch = make(p, p.contractId) as EventEnvelope[];
    // Refused before anything is written (the in-memory ids and subjects would not match the store's).
    await expect(setBasedOnly(batched.pool, batch)).rejects.toBeInstanceOf(NotExactInBatch);
    const { counts, pool } = counting(batched.pool);
    const { created } = await sameAsOneByOne(batch, (_pool, b) => ingestBatch(pool, b));
    expect(counts.connects).toBe(2); // the set-based transaction, then the one-by-one one
    expect(created).toBe(expected);
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

    const replay = process.env['TELEMETRY_BATCH_SEED'];
    const seeds = replay ? [Number(replay)] : Array.from({ length: 24 }, (_, i) => 20261125 + i);
    // The paths a batch can take; every one must occur across the seeds.
    const PATHS = [
      'set-based, all new', 'set-based, plain events recorded before', 'one by one (a stateful event recorded before)',
      'redelivered whole', 'set-based, a contract inherited from earlier in the batch',
    ] as const;
    type Path = (typeof PATHS)[number];
    const tally = new Map<number, Map<Path, number>>();

    it.each(seeds)('against one by one: seed %i (TELEMETRY_BATCH_SEED=<seed> replays it alone)', async (seed) => {
      // Each seed starts from empty stores, so it replays alone exactly and a failure does not spill over.
      await Promise.all([setBased.pool.query(TRUNCATE), single.pool.query(TRUNCATE)]);
      const paths = new Map<Path, number>();
      tally.set(seed, paths);
      const count = (path: Path) => paths.set(path, (paths.get(path) ?? 0) + 1);
      const seen = new Set<string>(); // ids recorded so far
      const filedSubjects = new Set<string>(); // subjects recorded so far under a contract of their own
      for (const [i, batch] of randomBatches(seed).entries()) {
        // The path the batch must take, predicted in memory (README "Recording a batch").
        const firsts = firstOfEachId(batch).map(classify);
        const before = firsts.filter((c) => seen.has(c.event.id));
        const predicted: Path = before.length === firsts.length ? 'redelivered whole'
          : before.some(isStateful) ? 'one by one (a stateful event recorded before)'
          : before.length > 0 ? 'set-based, plain events recorded before' : 'set-based, all new';
        // The path taken: a fallback opens a second transaction; a whole redelivery records nothing.
        const { counts, pool } = counting(setBased.pool);
        const created = await ingestBatch(pool, batch);
        const taken: Path = counts.connects === 2 ? 'one by one (a stateful event recorded before)'
          : created === 0 ? 'redelivered whole'
          : created === firsts.length ? 'set-based, all new' : 'set-based, plain events recorded before';
        expect({ seed, batch: i, created, path: taken }).toEqual({ seed, batch: i, created: await ingestEvents(single.pool, batch), path: predicted });
        count(taken);
        if (taken.startsWith('set-based')) {
          const inBatch = resolveFilings(firsts, new Map());
          if (firsts.some((c, k) => inheritsContract(c.filing) && inBatch[k].contractId !== null && !filedSubjects.has(c.filing.via as string))) {
            count('set-based, a contract inherited from earlier in the batch');
          }
        }
        for (const c of firsts) {
          seen.add(c.event.id);
          if (c.filing.contractId !== null) filedSubjects.add(c.event.subject_id);
        }
      }
      expect(await dump(setBased.pool)).toEqual(await dump(single.pool));
    }, 30_000);

    it('every path occurs across the seeds', () => {
      // One seed alone (replayed, or picked with -t) need not take every path.
      if (replay || tally.size < seeds.length) return;
      const total = (path: Path) => [...tally.values()].reduce((n, paths) => n + (paths.get(path) ?? 0), 0);
      expect(PATHS.filter((path) => total(path) === 0)).toEqual([]);
    });
  });
});
