import { commerceV1 } from '@exchange/proto';
import { uuidv7 } from '@exchange/platform';
import { agentActor, grpcError, operatorActor, startMandatesHarness, type MandatesHarness, type TestAgent } from './support/mandates-harness';

// RecordFeedback through gRPC against real PostgreSQL. The purchases are seeded rows (how a
// purchase comes to be is the saga's tests' concern; the e2e spec rates a real one).

describe('commerce feedback: RecordFeedback (PostgreSQL)', () => {
  let h: MandatesHarness;
  let buyer: TestAgent;
  let other: TestAgent;

  async function seedPurchase(buyerAgentId: string): Promise<string> {
    const dealId = `deal_${uuidv7()}`;
    await h.sql.query(
      `INSERT INTO purchases (deal_id, commerce_session_id, buyer_agent_id, mandate_id, merchant_domain, amount, list_amount, currency, receipt_id, receipt)
       VALUES ($1, $2, $3, 'mdt_seed', 'sandbox-merchant.local', 70000000, 70000000, 'USD', $4, '{}'::jsonb)`,
      [dealId, `cs_${uuidv7()}`, buyerAgentId, `rcpt_${uuidv7()}`],
    );
    return dealId;
  }

  const record = (dealId: string, over: Partial<commerceV1.RecordFeedbackRequest> = {}) =>
    h.client.recordFeedback(commerceV1.RecordFeedbackRequest.fromPartial({ actor: agentActor(buyer), dealId, rating: 5, comment: 'Fresh and on time', ...over }));
  const feedbackRows = async (dealId: string) => (await h.sql.query('SELECT rating, comment FROM feedback WHERE deal_id = $1', [dealId])).rows;

  beforeAll(async () => {
    h = await startMandatesHarness();
    buyer = h.newAgent('buyer');
    other = h.newAgent('other');
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it("should record the buyer's rating with the deal's merchant and write feedback.recorded in the same commit", async () => {
    const dealId = await seedPurchase(buyer.agentId);
    const { feedback } = await record(dealId);
    expect(feedback).toMatchObject({ dealId, buyerAgentId: buyer.agentId, merchantDomain: 'sandbox-merchant.local', rating: 5, comment: 'Fresh and on time' });
    expect(feedback!.feedbackId).toMatch(/^fbk_/);
    expect(await feedbackRows(dealId)).toEqual([{ rating: 5, comment: 'Fresh and on time' }]);
    const events = await h.outbox(dealId);
    expect(events.map((e) => e.type)).toEqual(['exchange.commerce.feedback.recorded']);
    expect(events[0].data.feedback).toMatchObject({ feedbackId: feedback!.feedbackId, dealId, rating: 5 });
  });

  it('should accept an empty comment', async () => {
    const dealId = await seedPurchase(buyer.agentId);
    expect((await record(dealId, { rating: 1, comment: '' })).feedback).toMatchObject({ rating: 1, comment: '' });
  });

  it('should refuse a second feedback on the deal with 409 feedback_exists and keep the first', async () => {
    const dealId = await seedPurchase(buyer.agentId);
    await record(dealId, { rating: 4 });
    expect((await grpcError(record(dealId, { rating: 1 }))).code).toBe('feedback_exists');
    expect(await feedbackRows(dealId)).toEqual([{ rating: 4, comment: 'Fresh and on time' }]);
    expect((await h.outbox(dealId)).length).toBe(1);
  });

  it('should let exactly one of ten concurrent feedbacks on a deal through (the unique index decides)', async () => {
    const dealId = await seedPurchase(buyer.agentId);
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => record(dealId, { rating: (i % 5) + 1 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const codes = await Promise.all(results.filter((r) => r.status === 'rejected').map((r) => grpcError(Promise.reject((r as PromiseRejectedResult).reason))));
    expect(new Set(codes.map((c) => c.code))).toEqual(new Set(['feedback_exists']));
    expect(await feedbackRows(dealId)).toHaveLength(1);
    expect((await h.outbox(dealId)).length).toBe(1);
  });

  it.each<[string, (dealId: string) => Partial<commerceV1.RecordFeedbackRequest>, string]>([
    ['another agent', () => ({ actor: agentActor(other) }), 'not_deal_buyer'],
    ['the operator', () => ({ actor: operatorActor }), 'not_deal_buyer'],
    ['an unknown deal', () => ({ dealId: 'deal_unknown' }), 'purchase_not_found'],
    ['rating 0', () => ({ rating: 0 }), 'validation_failed'],
    ['rating 6', () => ({ rating: 6 }), 'validation_failed'],
    ['a comment of 2001 characters', () => ({ comment: 'x'.repeat(2001) }), 'validation_failed'],
  ])('should refuse %s and store nothing', async (_name, over, code) => {
    const dealId = await seedPurchase(buyer.agentId);
    expect((await grpcError(record(dealId, over(dealId)))).code).toBe(code);
    expect(await feedbackRows(dealId)).toEqual([]);
    expect(await h.outbox(dealId)).toEqual([]);
  });
});
