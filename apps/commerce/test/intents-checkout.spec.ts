import { commerceV1 } from '@exchange/proto';
import { grpcError } from './support/mandates-harness';
import { agentActor, roses, SANDBOX_DOMAIN, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

// Checkouts naming an intent (real sandbox merchant, PostgreSQL): the intent is the session's
// evidence, and create/update/complete outside it are refused with the intent_* code. Two roses
// cost 70 USD at the sandbox merchant, three 105.

describe('commerce checkout under an intent (real sandbox merchant, PostgreSQL)', () => {
  let h: CheckoutHarness;
  let signer: TestAgent;
  let buyer: TestAgent;
  let mandateId: string;

  async function intent(over: Partial<commerceV1.CreateIntentRequest> = {}, owner: TestAgent = buyer): Promise<string> {
    const { intent: made } = await h.client.createIntent(
      commerceV1.CreateIntentRequest.fromPartial({
        actor: agentActor(owner),
        agentId: owner.agentId,
        description: 'roses for the office',
        merchants: [SANDBOX_DOMAIN],
        skus: ['bouquet_roses'],
        budget: { amount: '100', currency: 'USD' },
        expiresAt: new Date(Date.now() + 86_400_000),
        ...over,
      }),
    );
    return made!.intentId;
  }

  const expireIntent = (intentId: string) => h.sql.query("UPDATE intents SET expires_at = now() - interval '1 second' WHERE intent_id = $1", [intentId]);
  const counts = async () => {
    const { rows } = await h.sql.query('SELECT (SELECT count(*) FROM checkout_sessions)::int AS sessions, (SELECT count(*) FROM evidence)::int AS evidence');
    return rows[0] as { sessions: number; evidence: number };
  };
  const sessionRow = async (id: string) =>
    (await h.sql.query('SELECT total::text, status, evidence_seq, payment_stage, updated_at FROM checkout_sessions WHERE commerce_session_id = $1', [id])).rows[0];

  beforeAll(async () => {
    h = await startCheckoutHarness();
    signer = h.newAgent('signer');
    buyer = h.newAgent('buyer');
    mandateId = await h.mandate(signer, buyer);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  describe('create', () => {
    it('should open the session under the intent and keep the intent as its first evidence item', async () => {
      const intentId = await intent({ requiresRefundability: true });
      const { session } = await h.create(buyer, mandateId, { intentId });
      expect(session).toMatchObject({ intentId, total: '70' });
      const items = await h.evidence(session!.commerceSessionId);
      expect(items.map((i) => i.kind)).toEqual(['intent', 'merchant_request', 'merchant_response', 'mandate_check']);
      expect(items[0].content).toMatchObject({
        intent_id: intentId,
        agent_id: buyer.agentId,
        merchants: [SANDBOX_DOMAIN],
        skus: ['bouquet_roses'],
        budget: { amount: '100', currency: 'USD' },
        requires_refundability: true,
      });
      expect(session!.evidenceHead).toBe(items[3].hash);
    });

    it('should export and verify a casefile with the intent item in its chain', async () => {
      const intentId = await intent();
      const { session } = await h.create(buyer, mandateId, { intentId });
      const exported = await h.client.exportCasefile({ actor: agentActor(buyer), commerceSessionId: session!.commerceSessionId });
      const verified = await h.client.verifyCasefile({ actor: agentActor(buyer), commerceSessionId: session!.commerceSessionId, docketJson: exported.docketJson });
      expect(verified.valid).toBe(true);
      expect(JSON.parse(exported.docketJson).entries.some((e: any) => e.kind === 'evidence' && e.content.kind === 'intent')).toBe(true);
    });

    it.each<[string, () => Promise<Partial<commerceV1.CreateCheckoutRequest>>, string]>([
      ['an unknown intent', async () => ({ intentId: 'int_unknown' }), 'intent_not_found'],
      ["another agent's intent", async () => ({ intentId: await intent({}, h.newAgent('other')) }), 'not_intent_agent'],
      ['an expired intent', async () => { const id = await intent(); await expireIntent(id); return { intentId: id }; }, 'intent_expired'],
      ['a merchant outside the intent', async () => ({ intentId: await intent({ merchants: ['florist.example'] }) }), 'intent_merchant_not_allowed'],
      ['a sku outside the intent', async () => ({ intentId: await intent({ skus: ['pot_ceramic'] }) }), 'intent_sku_not_allowed'],
      ['an intent budget in another currency', async () => ({ intentId: await intent({ budget: { amount: '100', currency: 'EUR' } }) }), 'intent_currency_mismatch'],
      ['a total over the budget', async () => ({ intentId: await intent({ budget: { amount: '69.99', currency: 'USD' } }) }), 'intent_budget_exceeded'],
    ])('should refuse %s and store nothing', async (_name, over, code) => {
      const req = await over();
      const before = await counts();
      expect((await grpcError(h.create(buyer, mandateId, req))).code).toBe(code);
      expect(await counts()).toEqual(before);
    });

    it('should allow a total equal to the budget', async () => {
      const { session } = await h.create(buyer, mandateId, { intentId: await intent({ budget: { amount: '70', currency: 'USD' } }) });
      expect(session!.total).toBe('70');
    });
  });

  describe('update', () => {
    it('should refuse a cart with a sku outside the intent before the merchant is asked (session unchanged)', async () => {
      const { session } = await h.create(buyer, mandateId, { intentId: await intent() });
      const id = session!.commerceSessionId;
      const before = await sessionRow(id);
      const refused = await grpcError(h.client.updateCheckout({ actor: agentActor(buyer), commerceSessionId: id, lineItemsJson: JSON.stringify([{ item: { id: 'pot_ceramic' }, quantity: 1 }]), idempotencyKey: '' }));
      expect(refused).toMatchObject({ code: 'intent_sku_not_allowed', details: { sku: 'pot_ceramic' } });
      expect(await sessionRow(id)).toEqual(before);
    });

    it("should answer 403 intent_budget_exceeded for a merchant total over the budget, mirror the merchant's cart, and refuse the complete", async () => {
      const { session } = await h.create(buyer, mandateId, { intentId: await intent() });
      const id = session!.commerceSessionId;
      const refused = await grpcError(h.client.updateCheckout({ actor: agentActor(buyer), commerceSessionId: id, lineItemsJson: roses(3), idempotencyKey: '' }));
      expect(refused).toMatchObject({ code: 'intent_budget_exceeded', details: { total: '105', budget: '100', currency: 'USD' } });
      // The merchant holds the new cart: the session mirrors it (as for a mandate refusal) and stays unpayable.
      expect((await sessionRow(id)).total).toBe('105000000');
      expect((await grpcError(h.client.completeCheckout({ actor: agentActor(buyer), commerceSessionId: id, idempotencyKey: '' }))).code).toBe('intent_budget_exceeded');
      expect((await sessionRow(id)).payment_stage).toBe('none');
      const back = await h.client.updateCheckout({ actor: agentActor(buyer), commerceSessionId: id, lineItemsJson: roses(2), idempotencyKey: '' });
      expect(back.session!.total).toBe('70');
    });
  });

  describe('complete', () => {
    it('should refuse the complete of a session whose intent expired and change nothing', async () => {
      const intentId = await intent();
      const { session } = await h.create(buyer, mandateId, { intentId });
      const id = session!.commerceSessionId;
      await expireIntent(intentId);
      const before = await sessionRow(id);
      expect((await grpcError(h.client.completeCheckout({ actor: agentActor(buyer), commerceSessionId: id, idempotencyKey: '' }))).code).toBe('intent_expired');
      expect(await sessionRow(id)).toEqual(before);
    });
  });
});
