import { commerceV1 } from '@exchange/proto';
import { GENESIS_HASH } from '../src/evidence/evidence-chain';
import { grpcError } from './support/mandates-harness';
import { agentActor, operatorActor, roses, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

const { CheckoutStatus, ApprovalState } = commerceV1;

describe('commerce checkout sessions (real sandbox merchant, PostgreSQL, identity)', () => {
  let h: CheckoutHarness;
  let signer: TestAgent;
  let buyer: TestAgent;
  let mandateId: string;

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
    it("should mirror the merchant's checkout with totals in decimals, evidence chained and a created event", async () => {
      const { session, idempotentReplayed } = await h.create(buyer, mandateId);
      const s = session!;
      expect(idempotentReplayed).toBe(false);
      expect(s.commerceSessionId).toMatch(/^cs_/);
      expect(s).toMatchObject({
        buyerAgentId: buyer.agentId, mandateId, merchantDomain: 'sandbox-merchant.local', mode: commerceV1.SessionMode.SESSION_MODE_LIVE,
        status: CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE, approval: ApprovalState.APPROVAL_STATE_NOT_REQUIRED,
        currency: 'USD', total: '70', listTotal: '70', savings: '0', paymentStage: commerceV1.PaymentStage.PAYMENT_STAGE_NONE,
      });
      expect(JSON.parse(s.merchantCheckoutJson).id).toBe(s.merchantCheckoutId);
      expect(s.continueUrl).toContain(`/checkout/${s.merchantCheckoutId}`);
      const items = await h.evidence(s.commerceSessionId);
      expect(items.map((i) => [i.kind, i.operation])).toEqual([
        ['merchant_request', 'create_checkout'],
        ['merchant_response', 'create_checkout'],
        ['mandate_check', 'mandate_check'],
      ]);
      expect(items[0].prev_hash).toBe(GENESIS_HASH);
      expect(items[1].prev_hash).toBe(items[0].hash);
      expect(items[2].prev_hash).toBe(items[1].hash);
      expect(s.evidenceHead).toBe(items[2].hash);
      const events = await h.outbox(s.commerceSessionId);
      expect(events.map((e) => e.type)).toEqual(['exchange.commerce.checkout.created']);
      expect(events[0].data.session.commerceSessionId).toBe(s.commerceSessionId);
    });

    it('should keep the merchant status: no buyer email is incomplete', async () => {
      const { session } = await h.create(buyer, mandateId, { buyerJson: undefined });
      expect(session!.status).toBe(CheckoutStatus.CHECKOUT_STATUS_INCOMPLETE);
    });

    it('should replay the same request with the same key and refuse the key with another payload', async () => {
      const first = await h.create(buyer, mandateId, { idempotencyKey: 'create-1' });
      const again = await h.create(buyer, mandateId, { idempotencyKey: 'create-1' });
      expect(again.idempotentReplayed).toBe(true);
      expect(again.session!.commerceSessionId).toBe(first.session!.commerceSessionId);
      const reused = await grpcError(h.create(buyer, mandateId, { idempotencyKey: 'create-1', lineItemsJson: roses(3) }));
      expect(reused.code).toBe('idempotency_key_reused');
      const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM checkout_sessions WHERE commerce_session_id = $1', [first.session!.commerceSessionId]);
      expect(rows[0].n).toBe(1);
    });

    it.each([
      ['another agent acting', () => ({ actor: agentActor('someone_else') }), 'acting_agent_mismatch'],
      ['the operator', () => ({ actor: operatorActor }), 'acting_agent_mismatch'],
      ['an unknown mandate', () => ({ mandateId: 'mdt_unknown' }), 'mandate_not_found'],
      ['line items that are not JSON', () => ({ lineItemsJson: '[{' }), 'ucp_payload_invalid'],
      ['a quantity of 0', () => ({ lineItemsJson: roses(0) }), 'ucp_payload_invalid'],
      ['21 discount codes', () => ({ discountCodes: Array.from({ length: 21 }, (_, i) => `C${i}`) }), 'validation_failed'],
      ['buyer JSON that is an array', () => ({ buyerJson: '[]' }), 'ucp_payload_invalid'],
    ])('should refuse %s and store nothing', async (_name, over, code) => {
      const before = await h.sql.query('SELECT count(*)::int AS n FROM checkout_sessions');
      expect((await grpcError(h.create(buyer, mandateId, over()))).code).toBe(code);
      const after = await h.sql.query('SELECT count(*)::int AS n FROM checkout_sessions');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });

    it("should refuse a mandate granted to another agent", async () => {
      const other = h.newAgent('other');
      const othersMandate = await h.mandate(signer, other);
      expect((await grpcError(h.create(buyer, othersMandate))).code).toBe('mandate_not_for_agent');
    });

    it('should refuse a merchant outside the mandate scope and store nothing', async () => {
      const scoped = await h.mandate(signer, buyer, { scopeMerchants: ['shop.example'] });
      const err = await grpcError(h.create(buyer, scoped));
      expect(err.code).toBe('mandate_merchant_not_allowed');
      const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM checkout_sessions WHERE mandate_id = $1', [scoped]);
      expect(rows[0].n).toBe(0);
    });

    it('should refuse a cart above the per-transaction limit', async () => {
      const small = await h.mandate(signer, buyer, { perTransaction: '50', totalLimit: '100' });
      expect((await grpcError(h.create(buyer, small))).code).toBe('mandate_per_transaction_exceeded');
    });
  });

  describe('read', () => {
    it('should let the buyer and the operator read, nobody else; unknown ids are 404', async () => {
      const { session } = await h.create(buyer, mandateId);
      const id = session!.commerceSessionId;
      expect((await h.client.getCheckout({ actor: agentActor(buyer), commerceSessionId: id, refresh: false })).session!.total).toBe('70');
      expect((await h.client.getCheckout({ actor: operatorActor, commerceSessionId: id, refresh: false })).session!.commerceSessionId).toBe(id);
      expect((await grpcError(h.client.getCheckout({ actor: agentActor(signer), commerceSessionId: id, refresh: false }))).code).toBe('not_session_buyer');
      expect((await grpcError(h.client.getCheckout({ actor: agentActor(buyer), commerceSessionId: 'cs_nope', refresh: false }))).code).toBe('checkout_session_not_found');
    });

    it("should re-read the merchant's session on refresh and keep the exchange as evidence", async () => {
      const { session } = await h.create(buyer, mandateId);
      const id = session!.commerceSessionId;
      const refreshed = (await h.client.getCheckout({ actor: agentActor(buyer), commerceSessionId: id, refresh: true })).session!;
      expect(refreshed.status).toBe(CheckoutStatus.CHECKOUT_STATUS_READY_FOR_COMPLETE);
      const items = await h.evidence(id);
      expect(items.slice(-2).map((i) => [i.kind, i.operation])).toEqual([['merchant_request', 'get_checkout'], ['merchant_response', 'get_checkout']]);
      expect(refreshed.evidenceHead).toBe(items[items.length - 1].hash);
    });
  });
});
