// ListPublicEvents / ListOperatorEvents over gRPC against a real database seeded through ingest:
// what each shows, filters, keyset pages, who may read, validation, and the alias read at read time.
import type { EventEnvelope } from '@exchange/events';
import { marketV1, type telemetryV1 } from '@exchange/proto';
import { contractEvent, newParties, operatorFixtures, publicFixtures, type Parties } from './ingest-fixtures';
import { AGENT, failureCode, OPERATOR, startFeedsHarness, type FeedsHarness } from './feeds.harness';

let h: FeedsHarness;
let p1: Parties;
let p2: Parties;
let seeded: EventEnvelope[];
const publicIds = new Set<string>();

beforeAll(async () => {
  h = await startFeedsHarness('telemetry_feeds');
  p1 = newParties('feeds1');
  p2 = { ...newParties('feeds2'), at: new Date('2026-11-03T10:00:00.000Z') };
  const pub1 = Object.values(publicFixtures(p1));
  const pub2 = Object.values(publicFixtures(p2));
  for (const e of [...pub1, ...pub2]) publicIds.add(e.id);
  seeded = [...pub1, ...operatorFixtures(p1), ...pub2, ...operatorFixtures(p2)];
  await h.seed(seeded);
});
afterAll(async () => {
  await h?.stop();
});

type Lister = (page: { limit: number; cursor: string }) => Promise<{ events: Array<{ eventId: string; seq: string }>; page?: { nextCursor: string } }>;

/** Every event of a list, following next_cursor with pages of `limit`. */
async function all(list: Lister, limit = 50): Promise<Array<{ eventId: string; seq: string }>> {
  const out: Array<{ eventId: string; seq: string }> = [];
  let cursor = '';
  for (let i = 0; i < 1000; i++) {
    const res = await list({ limit, cursor });
    expect(res.events.length).toBeLessThanOrEqual(limit);
    out.push(...res.events);
    cursor = res.page?.nextCursor ?? '';
    if (cursor === '') return out;
  }
  throw new Error('no last page');
}

const publicList = (filter: telemetryV1.EventFilter = {}, limit = 50) =>
  all((page) => h.client.listPublicEvents({ actor: AGENT, filter, page }), limit);
const operatorList = (filter: telemetryV1.EventFilter = {}, limit = 50) =>
  all((page) => h.client.listOperatorEvents({ actor: OPERATOR, filter, page }), limit);
const ids = (events: Array<{ eventId: string }>) => events.map((e) => e.eventId);

describe('ListPublicEvents', () => {
  it('lists the public types only, in store order, over keyset pages (each event once)', async () => {
    const expected = seeded.filter((e) => publicIds.has(e.id)).map((e) => e.id);
    const paged = await publicList({}, 7);
    expect(ids(paged)).toEqual(expected);
    expect(ids(await publicList({}, 200))).toEqual(expected);
    const seqs = paged.map((e) => BigInt(e.seq));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i] > seqs[i - 1]).toBe(true);
  });

  it('shows the public part: no private buyer id, no operator notes', async () => {
    const res = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p1.contractId }, page: { limit: 200, cursor: '' } });
    expect(res.events.length).toBeGreaterThan(10);
    for (const e of res.events) {
      expect(e.dataJson).not.toContain(p1.buyer);
      expect(Object.keys(e)).not.toContain('actor');
      expect(Object.keys(e)).not.toContain('source');
    }
    const created = res.events.find((e) => e.type === 'exchange.market.contract.created')!;
    expect(JSON.parse(created.dataJson).contract).toMatchObject({ contractId: p1.contractId, buyerAlias: p1.alias });
  });

  it('filters by contract, listing, exact type, type prefix and time range (ANDed)', async () => {
    const byContract = await publicList({ contractId: p2.contractId });
    expect(byContract.length).toBeGreaterThan(0);
    const listed = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p2.contractId }, page: { limit: 200, cursor: '' } });
    expect(listed.events.every((e) => e.contractId === p2.contractId)).toBe(true);

    const listingId = `lst_${p1.contractId}`;
    const byListing = await h.client.listPublicEvents({ actor: AGENT, filter: { listingId }, page: { limit: 50, cursor: '' } });
    expect(byListing.events.map((e) => e.type)).toEqual(['exchange.market.listing.created']);
    expect(byListing.events[0].listingId).toBe(listingId);

    const exact = await h.client.listPublicEvents({ actor: AGENT, filter: { eventType: 'exchange.market.contract.buyer_alias_updated' }, page: { limit: 50, cursor: '' } });
    expect(exact.events.map((e) => e.contractId)).toEqual([p1.contractId, p2.contractId]);

    const offers = seeded.filter((e) => publicIds.has(e.id) && e.type.startsWith('exchange.market.offer.')).map((e) => e.id);
    expect(offers).toHaveLength(8);
    expect(ids(await publicList({ eventType: 'exchange.market.offer.*' }, 3))).toEqual(offers);
    // A prefix is a whole segment: 'exchange.market.contract.*' is not 'exchange.market.contract_x…'.
    const contractTypes = (await h.client.listPublicEvents({ actor: AGENT, filter: { eventType: 'exchange.market.contract.*', contractId: p1.contractId }, page: { limit: 200, cursor: '' } })).events.map((e) => e.type);
    expect(contractTypes).toHaveLength(13);
    expect(contractTypes.every((t) => t.startsWith('exchange.market.contract.'))).toBe(true);

    // [from, to): p1's events 3 ≤ minute < 6.
    const from = new Date(p1.at.getTime() + 3 * 60_000);
    const to = new Date(p1.at.getTime() + 6 * 60_000);
    const inRange = seeded
      .filter((e) => publicIds.has(e.id) && new Date(e.occurred_at) >= from && new Date(e.occurred_at) < to)
      .map((e) => e.id);
    expect(inRange.length).toBeGreaterThan(3);
    expect(ids(await publicList({ from, to }, 2))).toEqual(inRange);
    // Only p2's events are on 3 November.
    const p2Public = seeded.filter((e) => publicIds.has(e.id) && new Date(e.occurred_at) >= p2.at).map((e) => e.id);
    expect(ids(await publicList({ from: p2.at }))).toEqual(p2Public);
  });

  it('refuses bad filters and pages with 400s that name the problem', async () => {
    const list = (filter: telemetryV1.EventFilter, page = { limit: 10, cursor: '' }) => failureCode(h.client.listPublicEvents({ actor: AGENT, filter, page }));
    expect(await list({ contractId: 'ctr 1' })).toBe('validation_failed');
    expect(await list({ listingId: 'x'.repeat(129) })).toBe('validation_failed');
    expect(await list({ eventType: 'exchange.market.*.created' })).toBe('validation_failed');
    expect(await list({ eventType: 'EXCHANGE.market' })).toBe('validation_failed');
    expect(await list({ from: p1.at, to: p1.at })).toBe('validation_failed');
    expect(await list({}, { limit: 201, cursor: '' })).toBe('invalid_limit');
    expect(await list({}, { limit: 10, cursor: 'not-a-cursor' })).toBe('invalid_cursor');
    try {
      await h.client.listPublicEvents({ actor: AGENT, filter: { eventType: 'exchange.*.x' }, page: undefined });
      throw new Error('accepted');
    } catch (err) {
      expect((err as Error).message).toContain("prefix ending in '.*'");
    }
  });
});

describe('ListOperatorEvents', () => {
  it('is the operator\'s only: an agent or no caller gets 403 operator_required', async () => {
    expect(await failureCode(h.client.listOperatorEvents({ actor: AGENT, filter: {}, page: undefined }))).toBe('operator_required');
    expect(await failureCode(h.client.listOperatorEvents({ actor: undefined, filter: {}, page: undefined }))).toBe('operator_required');
  });

  it('lists every event complete, operator-only types included, in store order', async () => {
    expect(ids(await operatorList({}, 9))).toEqual(seeded.map((e) => e.id));
    const res = await h.client.listOperatorEvents({ actor: OPERATOR, filter: { eventType: 'exchange.wallet.*' }, page: { limit: 10, cursor: '' } });
    expect(res.events.map((e) => e.type)).toEqual(['exchange.wallet.hold.created', 'exchange.wallet.receipt.issued', 'exchange.wallet.hold.created', 'exchange.wallet.receipt.issued']);
    const hold = res.events[0];
    const source = seeded.find((e) => e.id === hold.eventId)!;
    expect(hold).toMatchObject({ source: 'wallet', actor: 'system:market', subjectId: source.subject_id, occurredAt: new Date(source.occurred_at) });
    expect(JSON.parse(hold.dataJson)).toEqual(source.data);
    expect(hold.recordedAt).toBeInstanceOf(Date);
    // The private buyer is in the operator's view of a contract event.
    const created = await h.client.listOperatorEvents({ actor: OPERATOR, filter: { contractId: p1.contractId, eventType: 'exchange.market.contract.created' }, page: undefined });
    expect(JSON.parse(created.events[0].dataJson).restricted).toEqual({ buyerId: p1.buyer });
  });

  it('validates like the public list', async () => {
    expect(await failureCode(h.client.listOperatorEvents({ actor: OPERATOR, filter: { contractId: '' }, page: undefined }))).toBe('validation_failed');
    expect(await failureCode(h.client.listOperatorEvents({ actor: OPERATOR, filter: { from: p2.at, to: p1.at }, page: undefined }))).toBe('validation_failed');
  });
});

describe('alias at read time', () => {
  it('a private buyer\'s new alias shows on the contract\'s earlier public events; the operator keeps them as published', async () => {
    const p = newParties('alias');
    const C = marketV1.ContractStatus;
    await h.seed([contractEvent(p, 'created'), contractEvent(p, 'awarded', { status: C.CONTRACT_STATUS_AWARDED, minutes: 1 })]);
    const before = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p.contractId }, page: undefined });
    expect(before.events.map((e) => JSON.parse(e.dataJson).contract.buyerAlias)).toEqual([p.alias, p.alias]);

    const renamed = { ...p, alias: 'anon:zyxwvutsrqpo' };
    await h.seed([contractEvent(renamed, 'buyer_alias_updated', { status: C.CONTRACT_STATUS_AWARDED, minutes: 2 })]);
    const after = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p.contractId }, page: undefined });
    expect(after.events.map((e) => JSON.parse(e.dataJson).contract.buyerAlias)).toEqual([renamed.alias, renamed.alias, renamed.alias]);
    expect(after.events.some((e) => e.dataJson.includes(p.alias))).toBe(false);

    const operator = await h.client.listOperatorEvents({ actor: OPERATOR, filter: { contractId: p.contractId }, page: undefined });
    expect(operator.events.map((e) => JSON.parse(e.dataJson).contract.buyerAlias)).toEqual([p.alias, p.alias, renamed.alias]);
  });

  it('where the private buyer acted (a dispute it opened) the public feed names its alias now', async () => {
    const p = newParties('acted');
    const C = marketV1.ContractStatus;
    const fixtures = publicFixtures(p);
    await h.seed([contractEvent(p, 'created'), fixtures['exchange.market.dispute.opened']]);
    const openedBy = async () => {
      const res = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p.contractId, eventType: 'exchange.market.dispute.opened' }, page: undefined });
      return JSON.parse(res.events[0].dataJson).dispute.openedBy;
    };
    expect(await openedBy()).toBe(p.alias);
    const renamed = { ...p, alias: 'anon:qponmlkjihgf' };
    await h.seed([contractEvent(renamed, 'buyer_alias_updated', { status: C.CONTRACT_STATUS_DISPUTED, minutes: 9 })]);
    expect(await openedBy()).toBe(renamed.alias);
  });

  it('a public buyer\'s events are shown as recorded', async () => {
    const p = newParties('public');
    await h.seed([contractEvent(p, 'created', { buyerPrivate: false })]);
    const res = await h.client.listPublicEvents({ actor: AGENT, filter: { contractId: p.contractId }, page: undefined });
    expect(JSON.parse(res.events[0].dataJson).contract.buyerId).toBe(p.buyer);
  });
});
