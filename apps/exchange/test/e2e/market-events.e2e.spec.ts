import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { describeWithNats } from '@exchange/testing';
import { MarketHttp } from './market-http';
import { bootStack, type Stack } from './stack';
import { eventually } from './wallet-http';

// The market's events as another service would see them: a contract's whole life through the
// gateway, then the envelopes published on NATS (outbox → relay → JetStream, subjects
// exchange.market.<entity>.<verb>) for that contract's ids. A plain core-NATS subscription reads
// what JetStream stores without leaving a consumer behind on the shared stream. Needs NATS_URL.

describeWithNats('market events on NATS (exchange.market.>)', (natsUrl) => {
  let stack: Stack;
  let m: MarketHttp;
  let nc: NatsConnection;
  let sub: Subscription;
  const received: Array<{ subject: string; type: string; subject_id: string; actor: string | null; data: any }> = [];

  beforeAll(async () => {
    stack = await bootStack({ shared: true });
    m = new MarketHttp(stack.baseUrl, stack.operatorToken);
    nc = await connect({ servers: natsUrl });
    sub = nc.subscribe('exchange.market.>');
    void (async () => {
      for await (const msg of sub) {
        const e = JSON.parse(new TextDecoder().decode(msg.data));
        received.push({ subject: msg.subject, type: e.type, subject_id: e.subject_id, actor: e.actor, data: e.data });
      }
    })();
    await nc.flush();
  });

  afterAll(async () => {
    sub?.unsubscribe();
    await nc?.close();
    if (m) await m.expectLedgerOk();
    await stack?.stop();
  });

  it('publishes every step of a settled contract once, in order per entity, with the resource as data', async () => {
    const verifier = await m.newAgent('ev-verifier');
    const reg = await m.expectStatus(m.as(verifier, 'POST', '/v1/verifiers', { name: 'Events' }), 201);
    const buyer = await m.newAgent('ev-buyer');
    const seller = await m.newAgent('ev-seller');
    const rival = await m.newAgent('ev-rival');
    await m.fund(buyer, '100');
    const c = await m.openContract(buyer, { verification_mode: 'verifier', verifier_id: verifier.agentId });
    const offer = await m.submitOffer(seller, c.contract_id, '100');
    const rivalOffer = await m.submitOffer(rival, c.contract_id, '90');
    await m.expectStatus(m.award(c.contract_id, offer.offer_id), 200);
    const result = await m.submitResult(seller, c.contract_id);
    const report = await m.expectStatus(m.verify(verifier, c.contract_id, result.result_id, 'pass'), 201);
    const dispute = await m.expectStatus(m.openDispute(buyer, c.contract_id), 201);
    await m.expectStatus(m.resolve(dispute.dispute_id, { outcome: 'seller' }), 200);

    const ids = new Set<string>([c.contract_id, offer.offer_id, rivalOffer.offer_id, result.result_id, report.report_id, dispute.dispute_id, reg.verifier_id]);
    const expected = [
      'exchange.market.verifier.registered',
      'exchange.market.contract.created',
      'exchange.market.offer.submitted',
      'exchange.market.offer.submitted',
      'exchange.market.contract.awarded',
      'exchange.market.offer.awarded',
      'exchange.market.offer.rejected',
      'exchange.market.result.submitted',
      'exchange.market.contract.delivered',
      'exchange.market.verification.submitted',
      'exchange.market.result.accepted',
      'exchange.market.contract.accepted',
      'exchange.market.contract.settled',
      'exchange.market.dispute.opened',
      'exchange.market.contract.disputed',
      'exchange.market.dispute.resolved',
      'exchange.market.contract.settled',
    ];
    const mine = () => received.filter((e) => ids.has(e.subject_id));
    await eventually(async () => mine().length, (n) => n >= expected.length, 80, 250);
    await new Promise((r) => setTimeout(r, 500)); // anything extra (a duplicate) would arrive now
    const events = mine();
    expect(events.map((e) => e.type).sort()).toEqual([...expected].sort());
    for (const e of events) expect(e.subject).toBe(e.type);

    // Per contract, the states in the order they happened.
    const contractEvents = events.filter((e) => e.subject_id === c.contract_id);
    expect(contractEvents.map((e) => e.type.split('.').pop())).toEqual(['created', 'awarded', 'delivered', 'accepted', 'settled', 'disputed', 'settled']);
    expect(contractEvents.map((e) => e.data.contract.status)).toEqual([
      'CONTRACT_STATUS_OPEN',
      'CONTRACT_STATUS_AWARDED',
      'CONTRACT_STATUS_DELIVERED',
      'CONTRACT_STATUS_ACCEPTED',
      'CONTRACT_STATUS_SETTLED',
      'CONTRACT_STATUS_DISPUTED',
      'CONTRACT_STATUS_SETTLED',
    ]);
    const settled = contractEvents[4].data.contract;
    expect(settled).toMatchObject({ contractId: c.contract_id, buyerId: buyer.agentId, sellerId: seller.agentId, price: { amount: '100', currency: 'CREDIT' }, escrowStatus: 'ESCROW_STATUS_SETTLED' });
    expect(settled.receiptId).toMatch(/^rcpt_/);
    // Who acted: the buyer created it, the operator awarded it.
    expect(contractEvents[0].actor).toBe(`agent:${buyer.agentId}`);
    expect(contractEvents[1].actor).toMatch(/^operator:/);
    const verification = events.find((e) => e.type === 'exchange.market.verification.submitted')!;
    expect(verification.data.report).toMatchObject({ reportId: report.report_id, resultId: result.result_id, verdict: 'VERDICT_PASS' });
    const resolved = events.find((e) => e.type === 'exchange.market.dispute.resolved')!;
    expect(resolved.data.dispute).toMatchObject({ disputeId: dispute.dispute_id, status: 'DISPUTE_STATUS_RESOLVED', outcome: 'DISPUTE_OUTCOME_SELLER' });
  });

  it('publishes the other verbs: reopened, rejected and withdrawn, cancelled, refunded, split, expired, listing and verifier listing created', async () => {
    const seller = await m.newAgent('ev2-seller');
    // Verdict fail then cancel by the seller: result.rejected, contract.reopened, contract.cancelled.
    const a = await m.delivered({ funds: '100', price: '100', seller });
    await m.expectStatus(m.verify(a.buyer, a.contractId, a.result.result_id, 'fail'), 201);
    await m.expectStatus(m.as(seller, 'POST', `/v1/contracts/${a.contractId}/cancel`, {}), 200);
    // Buyer outcome and split.
    const b = await m.delivered({ funds: '100', price: '100' });
    const db = await m.expectStatus(m.openDispute(b.buyer, b.contractId), 201);
    await m.expectStatus(m.resolve(db.dispute_id, { outcome: 'buyer' }), 200);
    const c = await m.delivered({ funds: '100', price: '100' });
    const dc = await m.expectStatus(m.openDispute(c.buyer, c.contractId), 201);
    await m.expectStatus(m.resolve(dc.dispute_id, { outcome: 'split', seller_share_bps: 3000 }), 200);
    // Withdrawn offer, expiry of an open contract (default sweep every 5 s), listings.
    const buyer = await m.newAgent('ev2-buyer');
    const open = await m.openContract(buyer, { deadline: new Date(Date.now() + 2000).toISOString() });
    const o = await m.submitOffer(seller, open.contract_id, '10', { eta: new Date(Date.now() + 1500).toISOString() });
    await m.expectStatus(m.as(seller, 'POST', `/v1/offers/${o.offer_id}/withdraw`, {}), 200);
    const listing = await m.expectStatus(m.as(seller, 'POST', '/v1/listings', { title: 'ev', price: { amount: '1', currency: 'CREDIT' } }), 201);
    await m.expectStatus(m.as(seller, 'POST', '/v1/verifiers', { name: 'ev2' }), 201);
    const vl = await m.expectStatus(m.as(seller, 'POST', '/v1/verifier-listings', { title: 'ev', price: { amount: '1', currency: 'CREDIT' }, turnaround: 'PT1H' }), 201);

    const typesOf = (id: string) => received.filter((e) => e.subject_id === id).map((e) => e.type.replace('exchange.market.', ''));
    await eventually(async () => typesOf(open.contract_id), (t) => t.includes('contract.expired'), 80, 250);
    await new Promise((r) => setTimeout(r, 500));
    expect(typesOf(a.contractId)).toEqual(['contract.created', 'contract.awarded', 'contract.delivered', 'contract.reopened', 'contract.cancelled']);
    expect(typesOf(a.result.result_id)).toEqual(['result.submitted', 'result.rejected']);
    expect(typesOf(b.contractId)).toEqual(['contract.created', 'contract.awarded', 'contract.delivered', 'contract.disputed', 'contract.refunded']);
    expect(typesOf(c.contractId)).toEqual(['contract.created', 'contract.awarded', 'contract.delivered', 'contract.disputed', 'contract.split']);
    expect(typesOf(open.contract_id)).toEqual(['contract.created', 'contract.expired']);
    expect(typesOf(o.offer_id)).toEqual(['offer.submitted', 'offer.withdrawn']);
    expect(typesOf(listing.listing_id)).toEqual(['listing.created']);
    expect(typesOf(vl.verifier_listing_id)).toEqual(['verifier_listing.created']);
    const cancelled = received.find((e) => e.subject_id === a.contractId && e.type.endsWith('.cancelled'))!;
    expect(cancelled.data.contract).toMatchObject({ status: 'CONTRACT_STATUS_CANCELLED' });
  });
});
