import { createServiceClient, errorInfoFromGrpc, parseAmount } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { startSagaHarness, type CommerceClient, type SagaHarness } from '../support/saga-harness';

// One mandate whose total limit is 7 carts, 20 ready sessions of the same buyer under it, 20
// CompleteCheckout calls at once: the reserve step (mandate row locked, CHECK spent + reserved <=
// total_limit as the last guard) lets exactly 7 through; the 13 others are 403
// mandate_total_exceeded and move no money.

jest.setTimeout(120_000);

let h: SagaHarness;
let client: CommerceClient;

beforeAll(async () => {
  h = await startSagaHarness('commerce_conc');
  client = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${h.commerce!.grpcPort}`, { defaultDeadlineMs: 60_000 });
});

afterAll(async () => {
  client?.close();
  await h?.close();
});

it('20 concurrent completes against a mandate worth 7 carts: exactly 7 purchases, 13 × 403 mandate_total_exceeded', async () => {
  const buyer = await h.newBuyer('300');
  const cart = parseAmount('15');
  const mandateId = await h.insertMandate(buyer, { total: '105' }); // 7 × 15
  const sessions: string[] = [];
  for (let i = 0; i < 20; i++) sessions.push((await h.readySession(buyer, mandateId, [['pot_ceramic', 1]])).sessionId);

  const results = await Promise.all(
    sessions.map((sessionId) =>
      client.completeCheckout(commerceV1.CompleteCheckoutRequest.fromPartial({ actor: { agentId: buyer }, commerceSessionId: sessionId, idempotencyKey: `c-${sessionId}` })).then(
        (res) => ({ ok: true as const, purchase: res.purchase! }),
        (err: unknown) => ({ ok: false as const, code: errorInfoFromGrpc(err).code }),
      ),
    ),
  );

  const ok = results.filter((r) => r.ok);
  const refused = results.filter((r) => !r.ok);
  expect(ok).toHaveLength(7);
  expect(refused.map((r) => (r.ok ? '' : r.code))).toEqual(Array(13).fill('mandate_total_exceeded'));
  expect(new Set(ok.map((r) => (r.ok ? r.purchase.dealId : ''))).size).toBe(7);

  const { rows: m } = await h.sql.query<{ spent: string; reserved: string; total_limit: string; status: string }>(
    'SELECT spent::text, reserved::text, total_limit::text, status FROM mandates WHERE mandate_id = $1',
    [mandateId],
  );
  expect(m[0]).toEqual({ spent: String(7n * cart), reserved: '0', total_limit: String(7n * cart), status: 'exhausted' });
  const { rows: stages } = await h.sql.query<{ payment_stage: string; n: number }>(
    'SELECT payment_stage, count(*)::int AS n FROM checkout_sessions WHERE mandate_id = $1 GROUP BY payment_stage ORDER BY payment_stage',
    [mandateId],
  );
  expect(stages).toEqual([{ payment_stage: 'none', n: 13 }, { payment_stage: 'settled', n: 7 }]);
  const { rows: purchases } = await h.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases WHERE mandate_id = $1', [mandateId]);
  expect(purchases[0].n).toBe(7);

  // Every hold the buyer has is settled: none active, none left behind by a refused complete.
  const { rows: holds } = await h.walletSql.query<{ status: string; n: number }>('SELECT status::text, count(*)::int AS n FROM holds WHERE agent_id = $1 GROUP BY status', [buyer]);
  expect(holds).toEqual([{ status: 'consumed', n: 7 }]);
  expect(await h.usd(buyer)).toEqual({ available: parseAmount('300') - 7n * cart, held: 0n });
  await h.expectLedgerOk();
});
