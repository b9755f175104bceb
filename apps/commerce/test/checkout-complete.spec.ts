import { parseAmount } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { grpcError } from './support/mandates-harness';
import { agentActor, startCheckoutHarness, type CheckoutHarness, type TestAgent } from './support/checkout-harness';

// One happy path through CompleteCheckout (checkout's pre-checks, then the purchase saga with a
// real wallet-ledger); the saga's own failure and crash paths are tested in saga*.spec.ts.
describe('commerce checkout complete (real wallet-ledger and sandbox merchant)', () => {
  let h: CheckoutHarness;
  let signer: TestAgent;
  let buyer: TestAgent;
  let mandateId: string;

  beforeAll(async () => {
    h = await startCheckoutHarness({ wallet: true });
    signer = h.newAgent('signer');
    buyer = h.newAgent('buyer');
    mandateId = await h.mandate(signer, buyer);
    await h.fundUsd(buyer.agentId, '100');
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  it("should pay with the merchant's sandbox instrument, answer the purchase, and answer it again on a repeat", async () => {
    const s = (await h.create(buyer, mandateId)).session!;
    const req = { actor: agentActor(buyer), commerceSessionId: s.commerceSessionId, idempotencyKey: 'complete-1' };
    const done = await h.client.completeCheckout(req);
    expect(done.idempotentReplayed).toBe(false);
    expect(done.session).toMatchObject({ status: commerceV1.CheckoutStatus.CHECKOUT_STATUS_COMPLETED, paymentStage: commerceV1.PaymentStage.PAYMENT_STAGE_SETTLED });
    expect(done.purchase).toMatchObject({ commerceSessionId: s.commerceSessionId, buyerAgentId: buyer.agentId, merchantDomain: 'sandbox-merchant.local', amount: '70', currency: 'USD' });
    expect(JSON.parse(done.purchase!.receiptJson)).toMatchObject({
      receipt_id: done.purchase!.receiptId,
      contract_id: done.purchase!.dealId,
      payer: buyer.agentId,
      payee: 'merchant:sandbox-merchant.local',
      amount: '70',
      currency: 'USD',
      signature: expect.any(String),
    });
    expect(await h.usd(buyer.agentId)).toEqual({ available: parseAmount('30'), held: 0n });

    const again = await h.client.completeCheckout(req);
    expect(again.idempotentReplayed).toBe(true);
    expect(again.purchase!.dealId).toBe(done.purchase!.dealId);
    expect(await h.usd(buyer.agentId)).toEqual({ available: parseAmount('30'), held: 0n });
    // A completed session changes no more.
    expect((await grpcError(h.client.cancelCheckout({ ...req, idempotencyKey: '' }))).code).toBe('invalid_state');
  });
});
