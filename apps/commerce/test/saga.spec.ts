import { verifyCanonical } from '@exchange/crypto';
import { parseAmount } from '@exchange/platform';
import { reserve } from '../src/saga/reserve.step';
import { recoverPurchases } from '../src/workers/purchase-recovery';
import { sandboxPayment } from './support/saga-merchant';
import { failureOf, startSagaHarness, type SagaHarness } from './support/saga-harness';

// The purchase saga against real collaborators: PostgreSQL, a wallet-ledger process, a sandbox
// merchant process (UCP over HTTP, signed requests) and a fake identity. pot_ceramic costs 15 USD.

jest.setTimeout(60_000);

let h: SagaHarness;

beforeAll(async () => {
  h = await startSagaHarness('commerce_saga');
});

afterAll(async () => {
  await h?.close();
});

const USD = (v: string) => parseAmount(v);

async function stored(sessionId: string) {
  const { rows } = await h.sql.query('SELECT status, payment_stage, reserved_amount, hold_id, deal_id, receipt_id, order_id, failure_reason FROM checkout_sessions WHERE commerce_session_id = $1', [sessionId]);
  return rows[0];
}

async function mandate(mandateId: string) {
  const { rows } = await h.sql.query<{ spent: string; reserved: string; status: string }>('SELECT spent::text, reserved::text, status FROM mandates WHERE mandate_id = $1', [mandateId]);
  return { spent: BigInt(rows[0].spent), reserved: BigInt(rows[0].reserved), status: rows[0].status };
}

async function holds(agentId: string) {
  const { rows } = await h.walletSql.query<{ status: string; controller: string }>('SELECT status, controller FROM holds WHERE agent_id = $1 ORDER BY created_at', [agentId]);
  return rows;
}

async function outboxTypes(sessionId: string) {
  const { rows } = await h.sql.query<{ type: string }>(`SELECT type FROM outbox_events WHERE payload->>'subject_id' = $1 OR payload->'data'->'purchase'->>'commerceSessionId' = $1 ORDER BY created_at, id`, [sessionId]);
  return rows.map((r) => r.type);
}

describe('purchase saga', () => {
  it('happy path: reserve → hold → merchant complete → settle; the merchant is paid, the receipt verifies', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId, total } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    expect(total).toBe(USD('15'));
    const merchantBefore = await h.merchantSettled();

    const { purchase } = await h.saga().complete({ sessionId, payment: sandboxPayment() });

    expect(purchase).toMatchObject({ commerceSessionId: sessionId, buyerAgentId: buyer, merchantDomain: 'sandbox-merchant.local', amount: USD('15'), currency: 'USD' });
    expect(purchase!.orderId).toEqual(expect.any(String));
    const receipt = purchase!.receipt;
    expect(receipt).toMatchObject({ kind: 'settlement', contract_id: purchase!.dealId, payer: buyer, payee: 'merchant:sandbox-merchant.local', amount: '15', currency: 'USD' });
    const { signature, ...payload } = receipt;
    expect(verifyCanonical(payload, signature as string, payload['signer_public_key'] as string)).toBe(true);

    expect(await h.usd(buyer)).toEqual({ available: USD('85'), held: 0n });
    expect((await h.merchantSettled()) - merchantBefore).toBe(USD('15'));
    expect(await holds(buyer)).toEqual([{ status: 'consumed', controller: 'commerce' }]);
    expect(await stored(sessionId)).toMatchObject({ status: 'completed', payment_stage: 'settled', deal_id: purchase!.dealId, receipt_id: purchase!.receiptId, order_id: purchase!.orderId, failure_reason: null });
    expect(await mandate(mandateId)).toEqual({ spent: USD('15'), reserved: 0n, status: 'active' });
    const { rows: purchases } = await h.sql.query('SELECT amount::text, list_amount::text, receipt_id FROM purchases WHERE commerce_session_id = $1', [sessionId]);
    expect(purchases).toEqual([{ amount: '15000000', list_amount: '15000000', receipt_id: purchase!.receiptId }]);
    const { rows: evidence } = await h.sql.query<{ kind: string; operation: string }>('SELECT kind, operation FROM evidence WHERE commerce_session_id = $1 ORDER BY seq', [sessionId]);
    expect(evidence).toEqual([
      { kind: 'mandate_check', operation: 'reserve' },
      { kind: 'merchant_request', operation: 'complete_checkout' },
      { kind: 'merchant_response', operation: 'complete_checkout' },
    ]);
    expect(await outboxTypes(sessionId)).toEqual(['exchange.commerce.purchase.recorded', 'exchange.commerce.checkout.completed']);

    // Completing again answers the same purchase: no second hold, no second payment.
    const again = await h.saga().complete({ sessionId, payment: sandboxPayment() });
    expect(again.purchase).toMatchObject({ dealId: purchase!.dealId, receiptId: purchase!.receiptId });
    expect(await holds(buyer)).toHaveLength(1);
    await h.expectLedgerOk();
  });

  it('the merchant declines the payment: the hold and the reservation go back, and a new attempt can pay', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);

    const err = await failureOf(h.saga().complete({ sessionId, payment: sandboxPayment('fail_token') }));
    expect(err).toMatchObject({ code: 'checkout_not_ready', details: { failure_reason: 'payment_failed', status: 'ready_for_complete' } });
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'released', failure_reason: 'payment_failed', status: 'ready_for_complete' });
    expect(await h.usd(buyer)).toEqual({ available: USD('100'), held: 0n });
    expect(await holds(buyer)).toEqual([{ status: 'released', controller: 'commerce' }]);
    expect(await mandate(mandateId)).toEqual({ spent: 0n, reserved: 0n, status: 'active' });
    expect(await outboxTypes(sessionId)).toEqual(['exchange.commerce.checkout.payment_failed']);
    const first = (await stored(sessionId)).deal_id;

    const { purchase } = await h.saga().complete({ sessionId, payment: sandboxPayment() });
    expect(purchase!.dealId).not.toBe(first);
    expect(await h.usd(buyer)).toEqual({ available: USD('85'), held: 0n });
    expect(await mandate(mandateId)).toMatchObject({ spent: USD('15'), reserved: 0n });
    await h.expectLedgerOk();
  });

  it('insufficient funds: 409 passed through, nothing held, the reservation is given back; funded, the buyer completes', async () => {
    const buyer = await h.newBuyer('5');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);

    expect(await failureOf(h.saga().complete({ sessionId, payment: sandboxPayment() }))).toMatchObject({ code: 'insufficient_funds' });
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'released', failure_reason: 'insufficient_funds', hold_id: null });
    expect(await mandate(mandateId)).toMatchObject({ reserved: 0n, spent: 0n });
    expect(await holds(buyer)).toEqual([]);

    await h.wallet.createDeposit({ agentId: buyer, amount: '20', currency: 'USD', method: 1, idempotencyKey: `top-up-${sessionId}` }).then(({ deposit }) =>
      h.wallet.confirmDeposit({ agentId: buyer, depositId: deposit!.depositId, idempotencyKey: `top-up-confirm-${sessionId}` }),
    );
    const { purchase } = await h.saga().complete({ sessionId, payment: sandboxPayment() });
    expect(purchase!.amount).toBe(USD('15'));
    expect(await h.usd(buyer)).toEqual({ available: USD('10'), held: 0n });
    await h.expectLedgerOk();
  });

  it('a frozen buyer: 403 agent_frozen before any hold, the reservation is given back', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    h.identity.freeze(buyer);
    try {
      expect(await failureOf(h.saga().complete({ sessionId, payment: sandboxPayment() }))).toMatchObject({ code: 'agent_frozen' });
    } finally {
      h.identity.freeze(buyer, false);
    }
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'released', failure_reason: 'agent_frozen', hold_id: null });
    expect(await mandate(mandateId)).toMatchObject({ reserved: 0n, spent: 0n });
    expect(await holds(buyer)).toEqual([]);
    expect(await h.usd(buyer)).toEqual({ available: USD('100'), held: 0n });
  });

  it('the mandate total is re-checked at reserve: a second purchase past it is 403 mandate_total_exceeded and reserves nothing', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '20' });
    const a = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    const b = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    await h.saga().complete({ sessionId: a.sessionId, payment: sandboxPayment() });
    expect(await failureOf(h.saga().complete({ sessionId: b.sessionId, payment: sandboxPayment() }))).toMatchObject({ code: 'mandate_total_exceeded', grpcCode: 7 });
    expect(await stored(b.sessionId)).toMatchObject({ payment_stage: 'none', deal_id: null });
    expect(await mandate(mandateId)).toEqual({ spent: USD('15'), reserved: 0n, status: 'active' });
  });

  it('reaching the total exhausts the mandate', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '15' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    await h.saga().complete({ sessionId, payment: sandboxPayment() });
    expect(await mandate(mandateId)).toEqual({ spent: USD('15'), reserved: 0n, status: 'exhausted' });
    const { rows } = await h.sql.query<{ status: string }>(
      `SELECT payload->'data'->'mandate'->>'status' AS status FROM outbox_events WHERE type = 'exchange.commerce.mandate.status_changed' AND payload->>'subject_id' = $1`,
      [mandateId],
    );
    expect(rows).toEqual([{ status: 'MANDATE_STATUS_EXHAUSTED' }]);
  });

  it('recovery: a session left reserved (wallet call cut) is moved on to settled by resume', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 2]]);
    // The complete's reserve committed, then nothing more (as after a crash): recovery finishes it.
    await reserve(h.deps(), sessionId, sandboxPayment());
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'reserved' });
    expect(await h.saga().resume(sessionId)).toBe(true);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'settled', status: 'completed' });
    expect(await h.usd(buyer)).toEqual({ available: USD('70'), held: 0n });
    expect(await h.saga().resume(sessionId)).toBe(false);
    await h.expectLedgerOk();
  });

  it('two completes of one session at once: one attempt, one hold, both answer the same purchase', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    const [a, b] = await Promise.all([h.saga().complete({ sessionId, payment: sandboxPayment() }), h.saga().complete({ sessionId, payment: sandboxPayment() })]);
    expect(a.purchase!.dealId).toBe(b.purchase!.dealId);
    expect(await holds(buyer)).toEqual([{ status: 'consumed', controller: 'commerce' }]);
    expect(await h.usd(buyer)).toEqual({ available: USD('85'), held: 0n });
    expect(await mandate(mandateId)).toMatchObject({ spent: USD('15'), reserved: 0n });
  });

  it('the recovery worker leaves a complete still running alone and takes over a stale one', async () => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    await reserve(h.deps(), sessionId, sandboxPayment());
    expect(await recoverPurchases(h.deps(), 60_000)).toBe(0);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'reserved' });
    expect(await recoverPurchases(h.deps(), 0)).toBe(1);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'settled' });
  });
});
