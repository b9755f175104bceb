import { errorInfoFromGrpc, parseAmount } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { status } from '@grpc/grpc-js';
import type { ServiceProcess } from '@exchange/testing';
import { FAULT_POINTS, type FaultPoint } from '../../src/domain/faults';
import { startSagaHarness, type SagaHarness } from '../support/saga-harness';

// Commerce runs as its own process (tsx apps/commerce/src/main.ts) with COMMERCE_FAULT_INJECTION:
// it SIGKILLs itself right after the named purchase step committed, so the CompleteCheckout call
// fails UNAVAILABLE and the process is gone. Restarted without the fault, its start-up recovery
// round must finish the purchase exactly once: one hold, one receipt, one purchase, one merchant
// order, the mandate's spend equal to the total, and a consistent ledger.

jest.setTimeout(180_000);

let h: SagaHarness;

beforeAll(async () => {
  h = await startSagaHarness('commerce_fault', { inProcess: false });
  // A first start migrates commerce's database, so the tests can write mandates and sessions.
  const first = await h.spawnCommerce();
  first.client.close();
  await first.process.stop();
});

afterAll(async () => {
  await h?.close();
});

const STAGE_AFTER: Record<FaultPoint, string> = {
  after_reserve: 'reserved',
  after_hold: 'hold_placed',
  after_merchant_complete: 'merchant_completed',
  after_settle: 'settled',
};

async function died(proc: ServiceProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(proc.pid, 0);
    } catch {
      return; // gone
    }
    if (Date.now() > deadline) throw new Error(`commerce ${proc.pid} still alive:\n${proc.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function count(sql: SagaHarness['sql'], query: string, params: unknown[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(query, params);
  return rows[0].n;
}

describe('commerce killed mid-purchase (SIGKILL) and restarted', () => {
  it.each(FAULT_POINTS.map((p) => [p]))('%s: the restart finishes the purchase exactly once', async (fault) => {
    const buyer = await h.newBuyer('100');
    const mandateId = await h.insertMandate(buyer, { total: '500' });
    const { sessionId, merchantCheckoutId } = await h.readySession(buyer, mandateId, [['pot_ceramic', 1]]);
    const merchantBefore = await h.merchantSettled();
    const request = commerceV1.CompleteCheckoutRequest.fromPartial({ actor: { agentId: buyer }, commerceSessionId: sessionId, idempotencyKey: `complete-${sessionId}` });

    const armed = await h.spawnCommerce({ COMMERCE_FAULT_INJECTION: fault });
    let cut: unknown = null;
    await armed.client.completeCheckout(request).catch((err: unknown) => (cut = err));
    expect(cut).not.toBeNull();
    expect(errorInfoFromGrpc(cut).grpcCode).toBe(status.UNAVAILABLE);
    await died(armed.process);
    armed.client.close();
    const { rows: mid } = await h.sql.query('SELECT payment_stage FROM checkout_sessions WHERE commerce_session_id = $1', [sessionId]);
    expect(mid[0].payment_stage).toBe(STAGE_AFTER[fault]);

    const restarted = await h.spawnCommerce();
    try {
      // The start-up recovery round ran before SERVING.
      const { rows } = await h.sql.query('SELECT status, payment_stage, deal_id, receipt_id, order_id FROM checkout_sessions WHERE commerce_session_id = $1', [sessionId]);
      expect(rows[0]).toMatchObject({ status: 'completed', payment_stage: 'settled' });
      const { deal_id: dealId, receipt_id: receiptId, order_id: orderId } = rows[0];

      expect(await count(h.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [buyer])).toBe(1);
      expect(await count(h.walletSql, `SELECT count(*)::int AS n FROM holds WHERE agent_id = $1 AND status = 'consumed'`, [buyer])).toBe(1);
      expect(await count(h.walletSql, 'SELECT count(*)::int AS n FROM receipts WHERE contract_id = $1', [dealId])).toBe(1);
      expect(await count(h.sql, 'SELECT count(*)::int AS n FROM purchases WHERE commerce_session_id = $1', [sessionId])).toBe(1);
      const merchantSide = await h.merchant.call('GET', `/checkout-sessions/${merchantCheckoutId}`);
      expect(merchantSide.json).toMatchObject({ status: 'completed', order: { id: orderId } });
      const { rows: m } = await h.sql.query('SELECT spent::text, reserved::text FROM mandates WHERE mandate_id = $1', [mandateId]);
      expect(m[0]).toEqual({ spent: String(parseAmount('15')), reserved: '0' });
      expect(await h.usd(buyer)).toEqual({ available: parseAmount('85'), held: 0n });
      expect((await h.merchantSettled()) - merchantBefore).toBe(parseAmount('15'));
      await h.expectLedgerOk();

      // The buyer's retry of the cut call answers the one purchase.
      const again = await restarted.client.completeCheckout(request);
      expect(again.purchase).toMatchObject({ dealId, receiptId, amount: '15', currency: 'USD' });
      expect(await count(h.walletSql, 'SELECT count(*)::int AS n FROM holds WHERE agent_id = $1', [buyer])).toBe(1);
    } finally {
      restarted.client.close();
      await restarted.process.stop();
    }
  });
});
