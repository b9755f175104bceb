import { classifyEvent } from './classify';
import { checkoutFactOf, contractFactOf } from './facts';
import { malformedReason } from './event';

const ev = (type: string, data: unknown, subject_id = 'sub') => ({ type, data, subject_id });

describe('classifyEvent', () => {
  it.each([
    ['exchange.market.contract.settled', { contract: { contractId: 'ctr_1', listingId: 'lst_1' } }, { contractId: 'ctr_1', listingId: 'lst_1', via: null }],
    ['exchange.market.listing.created', { listing: { listingId: 'lst_1' } }, { contractId: null, listingId: 'lst_1', via: null }],
    ['exchange.market.offer.submitted', { offer: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.market.verification.submitted', { report: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.market.post.created', { post: { threadId: 'thr_1' } }, { contractId: null, listingId: null, via: 'thr_1' }],
    ['exchange.market.resale_review.decided', { review: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.wallet.hold.created', { hold: { controller: 'market', reference: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.wallet.hold.created', { hold: { controller: 'agent', reference: 'ctr_1' } }, { contractId: null, listingId: null, via: null }],
    ['exchange.wallet.receipt.issued', { receipt: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.registry.artifact.uploaded', { artifact: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.registry.artifact.acked', { ack: { artifactRef: 'sha256:a' } }, { contractId: null, listingId: null, via: 'sha256:a' }],
    ['exchange.workflows.task.settled', { task: { contractId: 'ctr_1' } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.commerce.checkout.completed', { session: { origin: { contractId: 'ctr_1' } } }, { contractId: 'ctr_1', listingId: null, via: null }],
    ['exchange.commerce.purchase.recorded', { purchase: { origin: { workflowRunId: 'run_1' } } }, { contractId: null, listingId: null, via: null }],
    ['exchange.identity.agent.registered', { agent: {} }, { contractId: null, listingId: null, via: null }],
  ])('%s', (type, data, filing) => {
    expect(classifyEvent(ev(type, data))).toEqual(filing);
  });
});

describe('facts', () => {
  const at = '2026-11-02T10:00:00.000Z';
  it('a private buyer comes from restricted; a split contract ended at its update', () => {
    const f = contractFactOf({
      type: 'exchange.market.contract.split',
      occurred_at: at,
      data: { contract: { contractId: 'ctr_1', buyerPrivate: true, status: 'CONTRACT_STATUS_SPLIT', budget: { amount: '5', currency: 'CREDIT' }, disputedFrom: 'CONTRACT_STATUS_DELIVERED', updatedAt: at, createdAt: at }, restricted: { buyerId: 'agt_b' } },
    })!;
    expect(f).toMatchObject({ buyerId: 'agt_b', buyerPrivate: true, status: 'split', budget: '5', everDisputed: true, endedAt: new Date(at) });
  });

  it('a checkout whose payment failed has ended', () => {
    const f = checkoutFactOf({ type: 'exchange.commerce.checkout.payment_failed', occurred_at: at, data: { session: { commerceSessionId: 'cs_1', status: 'CHECKOUT_STATUS_READY_FOR_COMPLETE', total: '3', updatedAt: at } } })!;
    expect(f).toMatchObject({ status: 'ready_for_complete', total: '3', endedAt: new Date(at) });
  });
});

describe('malformedReason', () => {
  const good = { id: 'evt_1', type: 'exchange.market.contract.created', source: 'market', subject_id: 'ctr_1', occurred_at: '2026-11-02T10:00:00.000Z', actor: null, data: {}, trace_id: null };
  it('accepts an envelope and names what is wrong with a bad one', () => {
    expect(malformedReason(good)).toBeNull();
    expect(malformedReason({ ...good, id: '' })).toBe('no id');
    expect(malformedReason({ ...good, type: 'x' })).toBe('no type');
    expect(malformedReason({ ...good, occurred_at: '2026-13-45' })).toMatch(/occurred_at/);
    expect(malformedReason({ ...good, data: [] })).toMatch(/data/);
    expect(malformedReason({ ...good, actor: 5 })).toMatch(/actor/);
  });

  it('refuses an envelope string with a lone UTF-16 surrogate (node-postgres would store U+FFFD), not a pair', () => {
    for (const k of ['id', 'type', 'source', 'subject_id', 'actor', 'trace_id'] as const) {
      const base = k === 'type' ? 'exchange.market.contract.created' : 'x';
      for (const lone of ['\uD800', '\uDFFF', '\uDC00\uD800']) {
        expect(malformedReason({ ...good, [k]: `${base}_${lone}` })).toBe(`${k} has a lone UTF-16 surrogate`);
      }
      expect(malformedReason({ ...good, [k]: `${base}_\uD83D\uDE00_é_"{,}\\` })).toBeNull(); // an astral pair is fine
    }
  });
});
