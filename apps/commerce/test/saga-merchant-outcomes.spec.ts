import { parseAmount } from '@exchange/platform';
import type { MerchantCall, MerchantCallInput, MerchantOutcome, MerchantPort, UcpOperation } from '../src/domain/merchant.ports';
import { POLL } from '../src/saga/merchant.step';
import { PurchaseSaga } from '../src/saga/purchase.saga';
import { sandboxPayment } from './support/saga-merchant';
import { failureOf, startSagaHarness, type SagaHarness } from './support/saga-harness';

// Merchant answers the sandbox does not give on demand (no answer, 5xx, complete_in_progress),
// scripted in front of the real merchant client: the scripted operations answer what the test
// says, every other operation reaches the real sandbox merchant. Wallet and database are real.

jest.setTimeout(60_000);

let h: SagaHarness;

beforeAll(async () => {
  h = await startSagaHarness('commerce_saga_outcomes');
  POLL.intervalMs = 20;
});

afterAll(async () => {
  await h?.close();
});

type Script = Partial<Record<UcpOperation, Array<(real: () => Promise<MerchantCall>) => Promise<MerchantCall>>>>;

function scripted(script: Script): { port: MerchantPort; calls: UcpOperation[] } {
  const real = h.deps().merchants;
  const calls: UcpOperation[] = [];
  const port: MerchantPort = {
    profile: (domain, opts) => real.profile(domain, opts),
    call(domain: string, operation: UcpOperation, input: MerchantCallInput) {
      calls.push(operation);
      const next = script[operation]?.shift();
      const pass = () => real.call(domain, operation, input);
      return next ? next(pass) : pass();
    },
  };
  return { port, calls };
}

const answer = (outcome: MerchantOutcome) => async (): Promise<MerchantCall> => ({ outcome, messages: [] });

async function stored(sessionId: string) {
  const { rows } = await h.sql.query('SELECT status, payment_stage, failure_reason FROM checkout_sessions WHERE commerce_session_id = $1', [sessionId]);
  return rows[0];
}

async function setup() {
  const buyer = await h.newBuyer('100');
  const mandateId = await h.insertMandate(buyer, { total: '500' });
  const session = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
  return { buyer, mandateId, ...session };
}

describe('purchase saga: merchant outcomes', () => {
  it('no answer to complete, and the merchant did not complete: cancel there, release the hold, 504 merchant_timeout', async () => {
    const { buyer, sessionId, merchantCheckoutId } = await setup();
    const { port, calls } = scripted({ complete_checkout: [answer({ kind: 'timeout' })] });
    const err = await failureOf(new PurchaseSaga({ ...h.deps(), merchants: port }).complete({ sessionId, payment: sandboxPayment() }));
    expect(err).toMatchObject({ code: 'merchant_timeout', grpcCode: 4 });
    expect(calls).toEqual(['complete_checkout', 'get_checkout', 'cancel_checkout']);
    expect((await h.merchant.call('GET', `/checkout-sessions/${merchantCheckoutId}`)).json.status).toBe('canceled');
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'released', failure_reason: 'merchant_timeout', status: 'canceled' });
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('100'), held: 0n });
    await h.expectLedgerOk();
  });

  it('a 5xx to complete although the merchant completed: the get shows it, and the purchase settles', async () => {
    const { buyer, sessionId } = await setup();
    // The real complete runs, but its answer is lost behind a 503.
    const { port, calls } = scripted({ complete_checkout: [async (real) => ({ outcome: { kind: 'unavailable', reason: 'HTTP 503' }, messages: (await real()).messages })] });
    const { purchase } = await new PurchaseSaga({ ...h.deps(), merchants: port }).complete({ sessionId, payment: sandboxPayment() });
    expect(calls).toEqual(['complete_checkout', 'get_checkout']);
    expect(purchase).toMatchObject({ amount: parseAmount('15'), orderId: expect.any(String) });
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'settled', status: 'completed' });
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: 0n });
  });

  it('complete_in_progress: polled until completed, then settled', async () => {
    const { sessionId } = await setup();
    const { port, calls } = scripted({ complete_checkout: [async (real) => {
      const done = await real();
      if (done.outcome.kind !== 'checkout') throw new Error('sandbox did not complete');
      return { ...done, outcome: { ...done.outcome, checkout: { ...done.outcome.checkout, status: 'complete_in_progress' } } };
    }] });
    const { purchase } = await new PurchaseSaga({ ...h.deps(), merchants: port }).complete({ sessionId, payment: sandboxPayment() });
    expect(calls).toEqual(['complete_checkout', 'get_checkout']);
    expect(purchase).not.toBeNull();
  });

  it('still complete_in_progress after polling: the hold stays, 504, and the recovery worker settles later', async () => {
    const { buyer, sessionId } = await setup();
    const inProgress = async (real: () => Promise<MerchantCall>): Promise<MerchantCall> => {
      const r = await real();
      if (r.outcome.kind !== 'checkout') throw new Error('sandbox did not answer a checkout');
      return { ...r, outcome: { ...r.outcome, checkout: { ...r.outcome.checkout, status: 'complete_in_progress' } } };
    };
    const { port } = scripted({ complete_checkout: [inProgress], get_checkout: Array(POLL.times).fill(inProgress) });
    const err = await failureOf(new PurchaseSaga({ ...h.deps(), merchants: port }).complete({ sessionId, payment: sandboxPayment() }));
    expect(err.code).toBe('merchant_timeout');
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'hold_placed', failure_reason: null, status: 'complete_in_progress' });
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: parseAmount('15') });

    // Recovery repeats the complete with the same key (the merchant replays it) and settles.
    expect(await h.saga().resume(sessionId)).toBe(true);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'settled', status: 'completed' });
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: 0n });
    await h.expectLedgerOk();
  });

  it('a protocol error is a definite no: released, 502 merchant_protocol_error', async () => {
    const { sessionId } = await setup();
    const { port } = scripted({ complete_checkout: [answer({ kind: 'protocol_error', reason: 'HTTP 418' })] });
    const err = await failureOf(new PurchaseSaga({ ...h.deps(), merchants: port }).complete({ sessionId, payment: sandboxPayment() }));
    expect(err.code).toBe('merchant_protocol_error');
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'released', failure_reason: 'merchant_protocol_error: HTTP 418' });
  });

  it('wallet unreachable at hold or settle: 503 wallet_unavailable, the stage stays, and recovery finishes', async () => {
    const { buyer, sessionId, mandateId } = await setup();
    const down = () => Promise.reject(Object.assign(new Error('14 UNAVAILABLE: connect ECONNREFUSED'), { code: 14 }));
    const wallet = h.deps().wallet;
    const noHold = { ...h.deps(), wallet: new Proxy(wallet, { get: (t, k) => (k === 'createHold' ? down : Reflect.get(t, k)) }) };
    expect((await failureOf(new PurchaseSaga(noHold).complete({ sessionId, payment: sandboxPayment() }))).code).toBe('wallet_unavailable');
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'reserved', failure_reason: null });
    const { rows } = await h.sql.query('SELECT reserved::text FROM mandates WHERE mandate_id = $1', [mandateId]);
    expect(rows[0].reserved).toBe(String(parseAmount('15')));

    const noSettle = { ...h.deps(), wallet: new Proxy(wallet, { get: (t, k) => (k === 'settle' ? down : Reflect.get(t, k)) }) };
    // Recovery moves it as far as it can: held and completed at the merchant, the settlement still due.
    expect(await new PurchaseSaga(noSettle).resume(sessionId)).toBe(true);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'merchant_completed' });
    expect((await failureOf(new PurchaseSaga(noSettle).resume(sessionId))).code).toBe('wallet_unavailable');
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: parseAmount('15') });

    expect(await h.saga().resume(sessionId)).toBe(true);
    expect(await stored(sessionId)).toMatchObject({ payment_stage: 'settled', status: 'completed' });
    expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: 0n });
    await h.expectLedgerOk();
  });

  it('a shadow session never pays', async () => {
    const { sessionId } = await setup();
    await h.sql.query(`UPDATE checkout_sessions SET mode = 'shadow' WHERE commerce_session_id = $1`, [sessionId]);
    expect((await failureOf(h.saga().complete({ sessionId, payment: sandboxPayment() }))).code).toBe('invalid_state');
    expect((await failureOf(h.saga().complete({ sessionId: 'cs_unknown', payment: null }))).code).toBe('checkout_session_not_found');
  });
});
