import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Coordination } from '@exchange/proto';
import { awardedContract, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

// The public part of a market event (its `data` outside `restricted`) never holds a private
// buyer's id, read back from the outbox rows as consumers will get them; a public buyer's events
// carry buyer_id and no restricted part.

type CoordinationClient = PromiseClient<typeof marketV1Coordination.CoordinationServiceService>;
const CS = marketV1.ContractStatus;

describe('market events: private buyers stay out of the public part (outbox)', () => {
  let h: MarketHarness;
  let co: CoordinationClient;
  beforeAll(async () => {
    h = await startMarketHarness({ name: 'market_event_privacy' });
    co = createServiceClient(marketV1Coordination.CoordinationServiceService, `127.0.0.1:${h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    co?.close();
    await h?.close();
  });

  /** Every outbox row of the contract and of what hangs off it, as stored. */
  async function rowsOf(contractId: string, ...subjects: string[]) {
    const { rows } = await h.marketSql.query<{ type: string; payload: { data: Record<string, unknown> } }>(
      `SELECT type, payload FROM outbox_events WHERE payload->>'subject_id' = ANY($1::text[]) ORDER BY created_at, id`,
      [[contractId, ...subjects]],
    );
    return rows.map((r) => ({ type: r.type, data: r.payload.data }));
  }
  const publicText = (data: Record<string, unknown>) => JSON.stringify({ ...data, restricted: undefined });

  async function deliver(a: Awaited<ReturnType<typeof awardedContract>>) {
    const { result } = await h.client.submitResult(
      { contractId: a.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: undefined, idempotencyKey: '' },
      h.as(a.seller),
    );
    return result!;
  }
  async function verifyPass(buyer: TestAgent, contractId: string, resultId: string) {
    const checks = [{ name: 'ok', ok: true }];
    const signature = h.signReport(buyer, { verifierId: buyer.agentId, resultId, verdict: 'pass', score: 1, checks });
    return h.client.submitVerification(
      { contractId, verifierId: '', resultId, verdict: marketV1.Verdict.VERDICT_PASS, score: 1, checks, signature, idempotencyKey: '' },
      h.as(buyer),
    );
  }

  it('a private buyer: created, awarded, disputed, settled (and the dispute, thread and posts) never name the buyer outside restricted', async () => {
    const a = await awardedContract(h, { contract: { buyerPrivate: true } });
    const buyer = a.buyer.agentId;
    const contractId = a.contract.contractId;
    await deliver(a);
    const { thread, firstPost } = await co.createThread(
      marketV1Coordination.CreateThreadRequest.fromPartial({ title: 'About the delivery', contractId, body: 'Missing a part' }),
      h.as(a.buyer),
    );
    const reply = (await co.createPost(marketV1Coordination.CreatePostRequest.fromPartial({ threadId: thread!.threadId, body: 'Which?' }), h.as(a.seller))).post!;
    const opened = await h.client.openDispute({ contractId, openedBy: '', reason: 'incomplete', evidenceRefs: [], idempotencyKey: '' }, h.as(a.buyer));
    const disputeId = opened.dispute!.disputeId;
    const resolved = await h.client.resolveDispute(
      { disputeId, outcome: marketV1.DisputeOutcome.DISPUTE_OUTCOME_SELLER, rationale: 'complete enough', idempotencyKey: '' },
      h.operator('judge'),
    );
    expect(resolved.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);

    const rows = await rowsOf(contractId, disputeId, thread!.threadId, firstPost!.postId, reply.postId);
    const types = rows.map((r) => r.type);
    for (const t of ['created', 'awarded', 'delivered', 'disputed', 'settled']) expect(types).toContain(`exchange.market.contract.${t}`);
    for (const t of ['dispute.opened', 'dispute.resolved', 'thread.created', 'post.created']) expect(types).toContain(`exchange.market.${t}`);
    for (const r of rows) {
      expect({ type: r.type, public: publicText(r.data) }).toEqual({ type: r.type, public: expect.not.stringContaining(buyer) });
      expect({ type: r.type, restricted: r.data['restricted'] }).toEqual({ type: r.type, restricted: { buyerId: buyer } });
    }
    // The alias (minted after creation) stays public; the seller, no private party, stays named.
    const settled = rows.find((r) => r.type === 'exchange.market.contract.settled')!.data as { contract: Record<string, unknown> };
    expect(settled.contract).toMatchObject({ buyerPrivate: true, buyerAlias: a.contract.buyerAlias, sellerId: a.seller.agentId });
    const post = rows.find((r) => r.type === 'exchange.market.post.created' && (r.data['post'] as { postId: string }).postId === reply.postId)!;
    expect(post.data['post']).toMatchObject({ author: a.seller.agentId });
  });

  it("a private buyer's own verification (mode buyer) leaves the report's verifier_id empty; the id is in restricted", async () => {
    const a = await awardedContract(h, { contract: { buyerPrivate: true } });
    const result = await deliver(a);
    const res = await verifyPass(a.buyer, a.contract.contractId, result.resultId);
    expect(res.contract!.status).toBe(CS.CONTRACT_STATUS_SETTLED);
    const report = (await h.outbox(res.report!.reportId)).find((e) => e.type === 'exchange.market.verification.submitted')!;
    expect(publicText(report.data)).not.toContain(a.buyer.agentId);
    expect(report.data['restricted']).toEqual({ buyerId: a.buyer.agentId });
    const settled = (await rowsOf(a.contract.contractId)).find((r) => r.type === 'exchange.market.contract.settled')!;
    expect(publicText(settled.data)).not.toContain(a.buyer.agentId);
  });

  it("a public buyer's contract events carry buyer_id and no restricted part", async () => {
    const a = await awardedContract(h);
    const opened = await h.client.openDispute(
      { contractId: a.contract.contractId, openedBy: '', reason: 'late', evidenceRefs: [], idempotencyKey: '' },
      h.as(a.buyer),
    );
    const rows = await rowsOf(a.contract.contractId, opened.dispute!.disputeId);
    expect(rows.map((r) => r.type)).toEqual([
      'exchange.market.contract.created',
      'exchange.market.contract.awarded',
      'exchange.market.dispute.opened',
      'exchange.market.contract.disputed',
    ]);
    for (const r of rows) expect(r.data).not.toHaveProperty('restricted');
    for (const r of rows.filter((x) => x.type.startsWith('exchange.market.contract.'))) expect(r.data['contract']).toMatchObject({ buyerId: a.buyer.agentId });
    expect(rows[2].data['dispute']).toMatchObject({ openedBy: a.buyer.agentId });
  });
});
