import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '@exchange/db';
import { marketV1 } from '@exchange/proto';
import { createTestDatabase, testLogger, type TestDatabase } from '@exchange/testing';
import { ingestEvent, ingestEvents } from '../src/ingest/event-store.repo';
import { contractEvent, newParties, operatorFixtures, publicFixtures } from './ingest-fixtures';

const C = marketV1.ContractStatus;

describe('ingestEvent (event store and facts)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('telemetry_ingest');
    await runMigrations({ connectionString: db.url, migrationsDir: path.join(__dirname, '..', 'prisma', 'migrations'), logger: testLogger });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const snapshot = async (contractId: string) => ({
    events: (await pool.query('SELECT event_id, type FROM events WHERE contract_id = $1 ORDER BY seq', [contractId])).rows,
    fact: (await pool.query('SELECT * FROM contract_facts WHERE contract_id = $1', [contractId])).rows[0],
    categories: (await pool.query('SELECT tag, kind FROM category_objects WHERE object_id = $1 ORDER BY tag', [contractId])).rows,
  });

  it('records an event once: a second delivery returns false and changes nothing', async () => {
    const p = newParties('idem');
    const created = contractEvent(p, 'created');
    const awarded = contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 5, price: '20.25' });
    expect(await ingestEvent(pool, created)).toBe(true);
    expect(await ingestEvent(pool, awarded)).toBe(true);
    const before = await snapshot(p.contractId);
    expect(await ingestEvent(pool, created)).toBe(false);
    expect(await ingestEvents(pool, [awarded, created])).toBe(0);
    expect(await snapshot(p.contractId)).toEqual(before);
    expect(before.events.map((e: { type: string }) => e.type)).toEqual(['exchange.market.contract.created', 'exchange.market.contract.awarded']);
    expect(before.fact).toMatchObject({
      buyer_id: p.buyer, buyer_private: true, buyer_alias: p.alias, seller_id: p.seller, status: 'awarded', currency: 'CREDIT',
      budget: '25500000', price: '20250000', sandbox: true, ever_disputed: false, ended_at: null,
    });
    expect(before.categories).toEqual([{ tag: 'labeling', kind: 'contract' }, { tag: 'vision', kind: 'contract' }]);
  });

  it('with a client, joins the caller transaction: a rollback leaves nothing', async () => {
    const p = newParties('tx');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await ingestEvent(client, contractEvent(p, 'created'))).toBe(true);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await snapshot(p.contractId)).toEqual({ events: [], fact: undefined, categories: [] });
  });

  it('folds snapshots arriving out of order to the newest; a dispute seen once stays seen', async () => {
    const p = newParties('ooo');
    const labels = { workflow_run_id: 'run_abc', stage: 'a' };
    const settled = contractEvent(p, 'settled', { status: C.CONTRACT_STATUS_SETTLED, minutes: 30, labels });
    const disputed = contractEvent(p, 'disputed', { status: C.CONTRACT_STATUS_DISPUTED, minutes: 20, labels, disputedFrom: C.CONTRACT_STATUS_DELIVERED });
    const created = contractEvent(p, 'created', { labels });
    await ingestEvents(pool, [settled, created, disputed]);
    const { fact, events } = await snapshot(p.contractId);
    expect(events).toHaveLength(3);
    expect(fact).toMatchObject({ status: 'settled', ever_disputed: true, workflow_run_id: 'run_abc' });
    expect(fact.ended_at.toISOString()).toBe('2026-11-02T10:30:00.000Z');
    expect(fact.settled_at.toISOString()).toBe('2026-11-02T10:30:00.000Z');
    expect(fact.updated_at.toISOString()).toBe('2026-11-02T10:30:00.000Z');
  });

  it('files events under their contract, through the thread or artifact they name; facts of checkouts and purchases', async () => {
    const p = newParties('file');
    const pub = publicFixtures(p);
    await ingestEvents(pool, [pub['exchange.market.contract.created'], pub['exchange.market.thread.created'], pub['exchange.market.post.created'], pub['exchange.market.listing.created']]);
    await ingestEvents(pool, operatorFixtures(p));
    const filed = (await pool.query('SELECT type, contract_id, listing_id FROM events WHERE contract_id = $1 OR listing_id = $2 ORDER BY seq', [p.contractId, `lst_${p.contractId}`])).rows;
    expect(filed.map((r) => r.type)).toEqual([
      'exchange.market.contract.created', 'exchange.market.thread.created', 'exchange.market.post.created', 'exchange.market.listing.created',
      'exchange.wallet.hold.created', 'exchange.wallet.receipt.issued', 'exchange.commerce.checkout.created', 'exchange.commerce.purchase.recorded',
      'exchange.registry.artifact.uploaded', 'exchange.registry.artifact.delivered', 'exchange.workflows.task.posted', 'exchange.market.resale_review.created',
    ]);
    const checkout = (await pool.query('SELECT * FROM checkout_facts WHERE commerce_session_id = $1', [`cs_${p.contractId}`])).rows[0];
    expect(checkout).toMatchObject({ buyer_agent_id: p.buyer, status: 'incomplete', total: '12340000', currency: 'USD', origin_contract_id: p.contractId, ended_at: null });
    const purchase = (await pool.query('SELECT * FROM purchase_facts WHERE deal_id = $1', [`deal_${p.contractId}`])).rows[0];
    expect(purchase).toMatchObject({ amount: '12340000', origin_contract_id: p.contractId, origin_workflow_run_id: null });
    const thread = (await pool.query('SELECT tag, sandbox FROM category_objects WHERE kind = $1 AND object_id = $2 ORDER BY tag', ['thread', `thr_${p.contractId}`])).rows;
    expect(thread).toEqual([{ tag: 'coordination', sandbox: true }, { tag: 'vision', sandbox: true }]);
  });

  it('a malformed amount fails the whole event: nothing recorded', async () => {
    const p = newParties('bad');
    const bad = contractEvent(p, 'created');
    (bad.data as { contract: { budget: { amount: string } } }).contract.budget.amount = '1e9';
    await expect(ingestEvent(pool, bad)).rejects.toThrow(/amount/);
    expect(await snapshot(p.contractId)).toEqual({ events: [], fact: undefined, categories: [] });
  });
});
