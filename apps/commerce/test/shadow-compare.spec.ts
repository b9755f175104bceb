import { commerceV1 } from '@exchange/proto';
import { grpcError } from './support/mandates-harness';
import { agentActor, operatorActor, roses, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

// Shadow compare and a session's transparency record over REAL sessions: the checkout harness
// (sandbox merchant process, PostgreSQL, fake identity) makes live and shadow sessions of the
// same cart; the lifecycle rows are the ones checkout wrote in its own transactions.

const { SessionMode, CheckoutStatus } = commerceV1;
const cart = (lines: Array<[string, number]>) => JSON.stringify(lines.map(([id, quantity]) => ({ item: { id }, quantity })));

describe('shadow compare and session transparency (real sessions, sandbox merchant)', () => {
  let h: CheckoutHarness;
  let buyer: TestAgent;
  let other: TestAgent;
  let live: commerceV1.CheckoutSession;
  let shadow: commerceV1.CheckoutSession;
  let shadowSoldOut: commerceV1.CheckoutSession;
  let start: Date;

  beforeAll(async () => {
    h = await startCheckoutHarness();
    const signer = h.newAgent('signer');
    buyer = h.newAgent('buyer');
    other = h.newAgent('other');
    const mandateId = await h.mandate(signer, buyer);
    const otherMandate = await h.mandate(signer, other);
    start = new Date(Date.now() - 1000);
    live = (await h.create(buyer, mandateId, { lineItemsJson: roses(2) })).session!;
    // The same cart in shadow mode, with a discount code the live one did not use.
    shadow = (await h.create(buyer, mandateId, { lineItemsJson: roses(2), mode: SessionMode.SESSION_MODE_SHADOW, discountCodes: ['10OFF'] })).session!;
    // A cart no live session has, one line out of stock (the sandbox merchant stocks 0 gardenias).
    shadowSoldOut = (await h.create(buyer, mandateId, { lineItemsJson: cart([['bouquet_roses', 1], ['gardenias', 1]]), mode: SessionMode.SESSION_MODE_SHADOW })).session!;
    await h.create(other, otherMandate, { lineItemsJson: roses(2), mode: SessionMode.SESSION_MODE_SHADOW });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const compare = (actor: { agentId: string; operator: boolean }, over: Partial<commerceV1.CompareShadowRequest> = {}) =>
    h.client.compareShadow(commerceV1.CompareShadowRequest.fromPartial({ actor, from: start, to: new Date(Date.now() + 60_000), ...over }));

  describe('compare', () => {
    it("should pair the buyer's shadow session with the live one of the same cart and list the differences", async () => {
      const res = await compare(agentActor(buyer));
      expect(res.summary).toEqual({ shadowSessions: '2', matched: '1', withDifferences: '1' });
      expect(res.comparisons.map((c) => c.shadow!.commerceSessionId)).toEqual([shadow.commerceSessionId, shadowSoldOut.commerceSessionId]);
      const [withLive, alone] = res.comparisons;
      expect(withLive.live?.commerceSessionId).toBe(live.commerceSessionId);
      expect(withLive.merchantDomain).toBe('sandbox-merchant.local');
      expect(withLive.cartKey).toMatch(/^[0-9a-f]{64}$/);
      // 2 roses at 35: live 70; the shadow's 10% code makes it 63 and saves 7.
      expect(withLive.differences).toEqual([
        { field: 'total', shadow: '63', live: '70' },
        { field: 'savings', shadow: '7', live: '0' },
        { field: 'discount_codes', shadow: '10OFF', live: '' },
      ]);
      expect(withLive.shadow).toMatchObject({ total: '63', listTotal: '70', savings: '7', discountCodes: ['10OFF'], unavailableItems: [] });
      expect(alone.live).toBeUndefined();
      expect(alone.differences).toEqual([]);
      expect(alone.shadow!.unavailableItems).toEqual(['gardenias']);
      expect(alone.shadow!.status).not.toBe(CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE);
    });

    it('should show the operator every buyer, filter by buyer and merchant, and page with the summary over the whole window', async () => {
      const all = await compare(operatorActor);
      expect(all.summary).toEqual({ shadowSessions: '3', matched: '1', withDifferences: '1' });
      expect(all.comparisons.map((c) => c.buyerAgentId).sort()).toEqual([buyer.agentId, buyer.agentId, other.agentId].sort());
      expect((await compare(operatorActor, { buyerAgentId: other.agentId })).summary?.shadowSessions).toBe('1');
      expect((await compare(operatorActor, { merchantDomain: 'elsewhere.example' })).summary?.shadowSessions).toBe('0');
      const first = await compare(operatorActor, { page: { limit: 2, cursor: '' } });
      expect(first.comparisons).toHaveLength(2);
      expect(first.summary?.shadowSessions).toBe('3');
      const second = await compare(operatorActor, { page: { limit: 2, cursor: first.page!.nextCursor } });
      expect(second.comparisons.map((c) => c.shadow!.commerceSessionId)).toEqual([all.comparisons[2].shadow!.commerceSessionId]);
      expect(second.page?.nextCursor).toBe('');
    });

    it('should default the window to the last 30 days and find nothing in a window before the sessions', async () => {
      expect((await h.client.compareShadow(commerceV1.CompareShadowRequest.fromPartial({ actor: operatorActor }))).summary?.shadowSessions).toBe('3');
      const before = await compare(operatorActor, { from: new Date(start.getTime() - 86_400_000), to: start });
      expect(before.comparisons).toEqual([]);
      expect(before.summary).toEqual({ shadowSessions: '0', matched: '0', withDifferences: '0' });
    });

    it("should refuse a reversed or too long window and another buyer's sessions to an agent", async () => {
      expect((await grpcError(compare(operatorActor, { from: new Date(), to: start }))).code).toBe('invalid_window');
      expect((await grpcError(compare(operatorActor, { from: new Date(Date.now() - 400 * 86_400_000), to: new Date() }))).code).toBe('invalid_window');
      expect((await grpcError(compare(agentActor(buyer), { buyerAgentId: other.agentId }))).code).toBe('acting_agent_mismatch');
      expect((await grpcError(compare(operatorActor, { page: { limit: 0, cursor: 'x' } }))).code).toBe('invalid_cursor');
    });
  });

  describe('session transparency', () => {
    it('should give the lifecycle written with each change, the evidence refs and a valid chain', async () => {
      await h.client.applyDiscount({ actor: agentActor(buyer), commerceSessionId: live.commerceSessionId, codes: ['10OFF'], idempotencyKey: '' });
      await h.client.cancelCheckout({ actor: agentActor(buyer), commerceSessionId: live.commerceSessionId, idempotencyKey: '' });
      const res = await h.client.getSessionTransparency({ actor: operatorActor, commerceSessionId: live.commerceSessionId });
      expect(res.session?.commerceSessionId).toBe(live.commerceSessionId);
      expect(res.lifecycle.map((e) => [e.seq, e.kind, e.from ?? null, e.to])).toEqual([
        [1, 'created', null, 'ready_for_complete/not_required/none'],
        [2, 'updated', 'ready_for_complete/not_required/none', 'ready_for_complete/not_required/none'],
        [3, 'canceled', 'ready_for_complete/not_required/none', 'canceled/not_required/none'],
      ]);
      const stored = await h.evidence(live.commerceSessionId);
      expect(res.evidence.map((e) => [e.seq, e.kind, e.operation, e.hash])).toEqual(stored.map((e) => [e.seq, e.kind, e.operation, e.hash]));
      expect(res.evidence[0].contentSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(res.chainValid).toBe(true);
      expect(res.purchase).toBeUndefined();
      expect(res.caseIds).toEqual([]);
      const { rows } = await h.sql.query('SELECT total::text, actor FROM session_lifecycle WHERE commerce_session_id = $1 ORDER BY seq', [live.commerceSessionId]);
      expect(rows).toEqual([
        { total: '70000000', actor: `agent:${buyer.agentId}` },
        { total: '63000000', actor: `agent:${buyer.agentId}` },
        { total: '63000000', actor: `agent:${buyer.agentId}` },
      ]);
    });

    it('should find a tampered evidence item', async () => {
      await h.sql.query(`UPDATE evidence SET content = jsonb_set(content, '{tampered}', 'true') WHERE commerce_session_id = $1 AND seq = 1`, [shadowSoldOut.commerceSessionId]);
      const res = await h.client.getSessionTransparency({ actor: operatorActor, commerceSessionId: shadowSoldOut.commerceSessionId });
      expect(res.chainValid).toBe(false);
    });

    it('should refuse an agent (even the buyer), an unknown session and a missing id', async () => {
      expect((await grpcError(h.client.getSessionTransparency({ actor: agentActor(buyer), commerceSessionId: live.commerceSessionId }))).code).toBe('operator_required');
      expect((await grpcError(h.client.getSessionTransparency({ actor: operatorActor, commerceSessionId: 'cs_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e' }))).code).toBe('checkout_session_not_found');
      expect((await grpcError(h.client.getSessionTransparency({ actor: operatorActor, commerceSessionId: 'nope\u0000' }))).code).toBe('checkout_session_not_found');
      expect((await grpcError(h.client.getSessionTransparency({ actor: operatorActor, commerceSessionId: '' }))).code).toBe('validation_failed');
    });
  });
});
