import { status } from '@grpc/grpc-js';
import { DomainError, parseAmount } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { testLogger } from '@exchange/testing';
import { creditCase } from '../../src/cases/case-refund.service';
import { recoverCaseRefunds } from '../../src/cases/case-refund.worker';
import { CasesService } from '../../src/cases/cases.service';
import type { WalletClient } from '../../src/clients/wallet.client';
import { bought, commerceClient, move, open, operator } from '../support/cases-harness';
import { failureOf, startSagaHarness, type CommerceClient, type SagaHarness } from '../support/saga-harness';

// Refunds exactly once: 10 concurrent approvals of cases on one deal whose amounts add up to more
// than was paid (the purchase row lock lets exactly the ones that fit through), and approvals
// whose wallet-ledger call never happened, or whose answer was lost, credited once by the
// recovery worker with the case's idempotency key; a refusal for good is not retried.

jest.setTimeout(180_000);

const C = commerceV1;
let h: SagaHarness;
let client: CommerceClient;

beforeAll(async () => {
  h = await startSagaHarness('commerce_case_conc');
  client = commerceClient(h);
});

afterAll(async () => {
  client?.close();
  await h?.close();
});

/** The harness's wallet client with RefundPurchase replaced. */
function walletWith(refundPurchase: WalletClient['refundPurchase']): WalletClient {
  return new Proxy(h.wallet, { get: (target, prop) => (prop === 'refundPurchase' ? refundPurchase : Reflect.get(target, prop)) }) as WalletClient;
}
const deps = (wallet: WalletClient) => ({ pool: h.sql, wallet, clock: () => new Date(), logger: testLogger, notify: () => undefined });
const caseRow = async (caseId: string) =>
  (await h.sql.query<{ status: string; refund_state: string; refund_receipt_id: string | null }>('SELECT status, refund_state, refund_receipt_id FROM purchase_cases WHERE case_id = $1', [caseId])).rows[0];
const purchaseRefundReceipts = async (settlementReceiptId: string) =>
  (await h.walletSql.query<{ n: number }>(`SELECT count(*)::int AS n FROM receipts WHERE kind = 'purchase_refund' AND refunds_receipt_id = $1`, [settlementReceiptId])).rows[0].n;

it('10 concurrent approvals of 10 × 10 USD cases on a 70 USD purchase: exactly 7 approved and credited, 3 × 409 refund_exceeds_paid', async () => {
  const p = await bought(h, client);
  const cases = [];
  for (let i = 0; i < 10; i++) cases.push(await open(client, p, { amount: '10' }));
  for (const c of cases) await move(client, c.caseId, 'under_review');
  const before = await h.usd(p.buyer);
  const merchantBefore = await h.merchantSettled();

  const results = await Promise.all(
    cases.map((c) =>
      move(client, c.caseId, 'approved').then(
        (res) => ({ ok: true as const, caseId: c.caseId, res }),
        async (err: unknown) => ({ ok: false as const, caseId: c.caseId, code: (await failureOf(Promise.reject(err))).code }),
      ),
    ),
  );

  const ok = results.filter((r) => r.ok);
  const refused = results.filter((r) => !r.ok);
  expect(ok).toHaveLength(7);
  expect(refused.map((r) => (r.ok ? '' : r.code))).toEqual(Array(3).fill('refund_exceeds_paid'));
  for (const r of ok) {
    if (r.ok) expect(r.res.case).toMatchObject({ status: C.CaseStatus.CASE_STATUS_APPROVED, refundState: C.RefundState.REFUND_STATE_CREDITED });
  }
  for (const r of refused) expect(await caseRow(r.caseId)).toEqual({ status: 'under_review', refund_state: 'none', refund_receipt_id: null });

  const { rows } = await h.sql.query<{ refunded: string; amount: string }>('SELECT refunded::text, amount::text FROM purchases WHERE deal_id = $1', [p.dealId]);
  expect(rows[0]).toEqual({ refunded: String(parseAmount('70')), amount: String(parseAmount('70')) });
  expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('70'), held: 0n });
  expect(await h.merchantSettled()).toBe(merchantBefore - parseAmount('70'));
  expect(await purchaseRefundReceipts(p.receiptId)).toBe(7);
  await h.expectLedgerOk();
});

it('an approval whose wallet call never happened (crash, wallet down) is credited once by the recovery worker', async () => {
  const p = await bought(h, client);
  const c = await open(client, p, { amount: '25' });
  await move(client, c.caseId, 'under_review');
  const before = await h.usd(p.buyer);
  const down = new CasesService(deps(walletWith(() => Promise.reject(new Error('14 UNAVAILABLE: connect ECONNREFUSED')))));

  const approved = await down.update({ caseId: c.caseId, status: 'approved', addEvidenceRefs: [] }, operator);
  expect(approved).toMatchObject({ case: { status: 'approved', refundState: 'pending' }, refundReceipt: null });
  expect(await h.usd(p.buyer)).toEqual(before);

  // The worker leaves a pending credit younger than its age threshold to the approve in flight.
  expect(await recoverCaseRefunds(deps(h.wallet), 60_000)).toBe(0);
  expect(await recoverCaseRefunds(deps(h.wallet), 0)).toBe(1);
  expect(await recoverCaseRefunds(deps(h.wallet), 0)).toBe(0);
  expect(await caseRow(c.caseId)).toMatchObject({ status: 'approved', refund_state: 'credited', refund_receipt_id: expect.any(String) });
  expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('25'), held: 0n });
  expect(await purchaseRefundReceipts(p.receiptId)).toBe(1);
  const { events } = await client.listCaseEvents(C.ListCaseEventsRequest.fromPartial({ actor: operator, caseId: c.caseId }));
  expect(events.map((e) => e.type)).toEqual(['opened', 'status_changed', 'status_changed', 'refund_credited']);
  await h.expectLedgerOk();
});

it('an approval whose wallet answer was lost after the credit is replayed by the worker, not paid twice', async () => {
  const p = await bought(h, client);
  const c = await open(client, p, { amount: '30' });
  await move(client, c.caseId, 'under_review');
  const before = await h.usd(p.buyer);
  const lost = new CasesService(
    deps(
      walletWith(async (req, opts) => {
        await h.wallet.refundPurchase(req, opts);
        throw new Error('14 UNAVAILABLE: connection reset');
      }),
    ),
  );

  expect((await lost.update({ caseId: c.caseId, status: 'approved', addEvidenceRefs: [] }, operator)).case.refundState).toBe('pending');
  expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('30'), held: 0n });

  expect(await recoverCaseRefunds(deps(h.wallet), 0)).toBe(1);
  expect(await caseRow(c.caseId)).toMatchObject({ refund_state: 'credited' });
  expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('30'), held: 0n });
  expect(await purchaseRefundReceipts(p.receiptId)).toBe(1);
  // A credit already recorded is not made again.
  expect(await creditCase(deps(h.wallet), c.caseId)).toEqual({ kind: 'none' });
  await h.expectLedgerOk();
});

it('a credit wallet-ledger refuses for good stays pending with a refund_refused event and is not retried', async () => {
  const p = await bought(h, client);
  const c = await open(client, p, { amount: '5' });
  await move(client, c.caseId, 'under_review');
  let calls = 0;
  const refusing = walletWith(() => {
    calls++;
    return Promise.reject(new DomainError(status.FAILED_PRECONDITION, 'refund_exceeds_paid', 'the refunds would pass what was paid'));
  });

  const res = await new CasesService(deps(refusing)).update({ caseId: c.caseId, status: 'approved', addEvidenceRefs: [] }, operator);
  expect(res.case).toMatchObject({ status: 'approved', refundState: 'pending' });
  expect(await recoverCaseRefunds(deps(refusing), 0)).toBe(0);
  expect(calls).toBe(1);
  const { events } = await client.listCaseEvents(C.ListCaseEventsRequest.fromPartial({ actor: operator, caseId: c.caseId }));
  expect(events[events.length - 1]).toMatchObject({ type: 'refund_refused', actor: 'system:commerce', note: expect.stringContaining('refund_exceeds_paid') });
});
