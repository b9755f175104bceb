import { classify, firstOfEachId, isStateful, publicViews, resolveFilings, viasToResolve, contractsToLookUp, type Classified } from './batch-plan';
import { classifyEvent } from './classify';
import type { StoreEvent } from './event';
import { PRIVATE_BUYER_MARK } from './public-alias';

const at = '2026-11-02T10:00:00.000Z';
const ev = (id: string, type: string, subject: string, data: Record<string, unknown>): StoreEvent => ({
  id, type, source: type.split('.')[1], subject_id: subject, occurred_at: at, actor: null, data, trace_id: null,
});
const classified = (events: StoreEvent[]): Classified[] => events.map(classify);

const thread = (id: string, contractId: string) => ev(`e_${id}_${contractId}`, 'exchange.market.thread.created', id, { thread: { threadId: id, contractId } });
const post = (id: string, threadId: string, author = 'agt_x') => ev(`e_${id}`, 'exchange.market.post.created', id, { post: { postId: id, threadId, author } });
const contract = (id: string, c: Record<string, unknown>, restricted?: string) =>
  ev(`e_${id}_${String(c.updatedAt)}`, 'exchange.market.contract.awarded', id, { contract: { contractId: id, ...c }, ...(restricted ? { restricted: { buyerId: restricted } } : {}) });
const offer = (id: string, contractId: string, terms: string) => ev(`e_${id}`, 'exchange.market.offer.submitted', id, { offer: { offerId: id, contractId, terms } });
const transfer = (id: string) => ev(id, 'exchange.wallet.transfer.completed', 'agt_a', { transfer: { transferId: id, amount: '1', currency: 'CREDIT' } });

describe('batch plan', () => {
  it('keeps the first occurrence of each id, in order', () => {
    expect(firstOfEachId([{ id: 'a', n: 1 }, { id: 'b', n: 2 }, { id: 'a', n: 3 }]).map((e) => e.n)).toEqual([1, 2]);
  });

  it('a post takes its thread contract from the store first, else from the first earlier event of the batch', () => {
    const batch = classified([post('p0', 'thr_0'), thread('thr_1', 'ctr_1'), thread('thr_1', 'ctr_other'), post('p1', 'thr_1'), post('p2', 'thr_2'), post('p3', 'thr_9')]);
    expect(viasToResolve(batch)).toEqual(['thr_0', 'thr_1', 'thr_2', 'thr_9']);
    const filings = resolveFilings(batch, new Map([['thr_2', 'ctr_stored'], ['thr_0', 'ctr_0']]));
    expect(filings.map((f) => f.contractId)).toEqual(['ctr_0', 'ctr_1', 'ctr_other', 'ctr_1', 'ctr_stored', null]);
  });

  it('a post before its thread in the batch stays unfiled, as one by one', () => {
    const filings = resolveFilings(classified([post('p1', 'thr_1'), thread('thr_1', 'ctr_1')]), new Map());
    expect(filings.map((f) => f.contractId)).toEqual([null, 'ctr_1']);
  });

  it('hides the private buyer an earlier snapshot of the batch recorded, and only from then on', () => {
    const events = [
      offer('o0', 'ctr_1', 'for agt_buyer'),
      contract('ctr_1', { buyerPrivate: true, updatedAt: '2026-11-02T10:01:00.000Z' }, 'agt_buyer'),
      offer('o1', 'ctr_1', 'for agt_buyer'),
      // An older public snapshot loses: the buyer stays private.
      contract('ctr_1', { buyerPrivate: false, updatedAt: '2026-11-02T10:00:30.000Z' }),
      offer('o2', 'ctr_1', 'for agt_buyer'),
    ];
    const filings = events.map((e) => classifyEvent(e));
    expect(contractsToLookUp(events, filings)).toEqual(['ctr_1']);
    const views = publicViews(classified(events), filings, new Map());
    expect(views.map((v) => (v as { offer?: { terms: string } }).offer?.terms)).toEqual(['for agt_buyer', undefined, `for ${PRIVATE_BUYER_MARK}`, undefined, `for ${PRIVATE_BUYER_MARK}`]);
  });

  const terms = (views: unknown[], i: number) => (views[i] as { offer: { terms: string } }).offer.terms;
  const storedFact = (buyerPrivate: boolean) => new Map([['ctr_1', { buyerId: 'agt_buyer', buyerPrivate, updatedAt: new Date('2026-11-02T10:01:00.000Z') }]]);

  it('starts from the stored fact: a newer snapshot with no buyer keeps the stored buyer', () => {
    const events = [
      offer('o0', 'ctr_1', 'for agt_buyer'),
      contract('ctr_1', { buyerPrivate: true, updatedAt: '2026-11-02T10:02:00.000Z' }),
      offer('o1', 'ctr_1', 'for agt_buyer'),
    ];
    const views = publicViews(classified(events), events.map((e) => classifyEvent(e)), storedFact(false));
    expect(terms(views, 0)).toBe('for agt_buyer');
    expect(terms(views, 2)).toBe(`for ${PRIVATE_BUYER_MARK}`);
  });

  it('a snapshot at the same updated_at as the stored fact wins (the upsert takes <=), either way', () => {
    const toPrivate = [contract('ctr_1', { buyerPrivate: true, updatedAt: '2026-11-02T10:01:00.000Z' }), offer('o1', 'ctr_1', 'for agt_buyer')];
    expect(terms(publicViews(classified(toPrivate), toPrivate.map((e) => classifyEvent(e)), storedFact(false)), 1)).toBe(`for ${PRIVATE_BUYER_MARK}`);
    const toPublic = [contract('ctr_1', { buyerPrivate: false, buyerId: 'agt_buyer', updatedAt: '2026-11-02T10:01:00.000Z' }), offer('o1', 'ctr_1', 'for agt_buyer')];
    expect(terms(publicViews(classified(toPublic), toPublic.map((e) => classifyEvent(e)), storedFact(true)), 1)).toBe('for agt_buyer');
  });

  it('a snapshot older than the stored fact loses against it', () => {
    const older = [contract('ctr_1', { buyerPrivate: true, updatedAt: '2026-11-02T10:00:59.999Z' }, 'agt_buyer'), offer('o1', 'ctr_1', 'for agt_buyer')];
    expect(terms(publicViews(classified(older), older.map((e) => classifyEvent(e)), storedFact(false)), 1)).toBe('for agt_buyer');
    const olderPublic = [contract('ctr_1', { buyerPrivate: false, buyerId: 'agt_buyer', updatedAt: '2026-11-02T10:00:00.000Z' }), offer('o1', 'ctr_1', 'for agt_buyer')];
    expect(terms(publicViews(classified(olderPublic), olderPublic.map((e) => classifyEvent(e)), storedFact(true)), 1)).toBe(`for ${PRIVATE_BUYER_MARK}`);
  });

  it('a private buyer nobody named (an empty buyer, stored or in the batch) hides nobody', () => {
    const events = [contract('ctr_2', { buyerPrivate: true, updatedAt: '2026-11-02T10:01:00.000Z' }), offer('o1', 'ctr_2', 'for agt_buyer'), offer('o2', 'ctr_1', 'for agt_buyer')];
    const stored = new Map([['ctr_1', { buyerId: '', buyerPrivate: true, updatedAt: new Date('2026-11-02T10:01:00.000Z') }]]);
    const views = publicViews(classified(events), events.map((e) => classifyEvent(e)), stored);
    expect([terms(views, 1), terms(views, 2)]).toEqual(['for agt_buyer', 'for agt_buyer']);
  });

  it('operator-only events have no view and need no look-up, even filed under a contract', () => {
    // The market's escrow hold is operator-only and filed under its contract (the hold's reference).
    const hold = ev('h1', 'exchange.wallet.hold.created', 'hld_1', { hold: { holdId: 'hld_1', controller: 'market', reference: 'ctr_1', amount: '1', currency: 'CREDIT' } });
    const events = [transfer('t1'), hold];
    const filings = events.map((e) => classifyEvent(e));
    expect(filings.map((f) => f.contractId)).toEqual([null, 'ctr_1']);
    expect(contractsToLookUp(events, filings)).toEqual([]);
    expect(publicViews(classified(events), filings, new Map())).toEqual([null, null]);
  });

  it('stateful: filed, naming an earlier object or folding facts; a transfer is not', () => {
    const batch = classified([transfer('t1'), post('p1', 'thr_1'), thread('thr_1', 'ctr_1'), ev('l1', 'exchange.market.listing.created', 'lst_1', { listing: { listingId: 'lst_1', tags: ['x'] } })]);
    expect(batch.map(isStateful)).toEqual([false, true, true, true]);
  });
});
