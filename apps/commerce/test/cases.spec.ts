import { verifyCanonical } from '@exchange/crypto';
import { parseAmount } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { agent, bought, commerceClient, move, open, operator, type Bought } from './support/cases-harness';
import { failureOf, startSagaHarness, type CommerceClient, type SagaHarness } from './support/saga-harness';

// Post-purchase cases through gRPC against real PostgreSQL, a real wallet-ledger and a purchase
// made at the sandbox merchant: who may open, read, move and add evidence; the state machine; the
// amount rules; an approval crediting the buyer once with a signed refund receipt; the events.

jest.setTimeout(120_000);

const C = commerceV1;
let h: SagaHarness;
let client: CommerceClient;

beforeAll(async () => {
  h = await startSagaHarness('commerce_cases');
  client = commerceClient(h);
});

afterAll(async () => {
  client?.close();
  await h?.close();
});

const refunded = async (dealId: string) => (await h.sql.query<{ r: string }>('SELECT refunded::text AS r FROM purchases WHERE deal_id = $1', [dealId])).rows[0].r;

describe('opening a case', () => {
  let p: Bought;

  beforeAll(async () => {
    p = await bought(h, client);
  });

  it('should open for the buyer with what remains refundable by default, with its opened event', async () => {
    const c = await open(client, p, { evidenceRefs: ['photo-1'] });
    expect(c).toMatchObject({
      dealId: p.dealId,
      buyerAgentId: p.buyer,
      merchantDomain: 'sandbox-merchant.local',
      type: C.CaseType.CASE_TYPE_REFUND,
      amount: '70',
      currency: 'USD',
      status: C.CaseStatus.CASE_STATUS_OPEN,
      evidenceRefs: ['photo-1'],
      refundState: C.RefundState.REFUND_STATE_NONE,
    });
    expect((await client.getCase({ actor: operator, caseId: c.caseId })).case).toEqual(c);
    const { events } = await client.listCaseEvents(C.ListCaseEventsRequest.fromPartial({ actor: agent(p.buyer), caseId: c.caseId }));
    expect(events).toEqual([expect.objectContaining({ seq: 1, type: 'opened', toStatus: C.CaseStatus.CASE_STATUS_OPEN, actor: p.buyer, evidenceRefs: ['photo-1'], amount: '70' })]);
    expect((await h.sql.query('SELECT type FROM outbox_events WHERE payload->>\'subject_id\' = $1', [c.caseId])).rows).toEqual([{ type: 'exchange.commerce.case.opened' }]);
  });

  it('should replay the same request under its key and refuse another body under it', async () => {
    const first = await open(client, p, { amount: '5', idempotencyKey: 'case-key-1' });
    const again = await client.createCase(C.CreateCaseRequest.fromPartial({ actor: agent(p.buyer), dealId: p.dealId, type: C.CaseType.CASE_TYPE_REFUND, reason: 'arrived broken', amount: '5', idempotencyKey: 'case-key-1' }));
    expect(again).toEqual({ case: first, idempotentReplayed: true });
    expect((await failureOf(open(client, p, { amount: '6', idempotencyKey: 'case-key-1' }))).code).toBe('idempotency_key_reused');
  });

  it('should refuse strangers, the operator, unknown deals, bad input and more than was paid — and store nothing', async () => {
    const { rows: before } = await h.sql.query('SELECT count(*)::int AS n FROM purchase_cases');
    const stranger = await h.newBuyer();
    expect(await failureOf(open(client, p, { actor: agent(stranger) }))).toMatchObject({ code: 'not_deal_buyer' });
    expect(await failureOf(open(client, p, { actor: operator }))).toMatchObject({ code: 'not_deal_buyer' });
    expect(await failureOf(open(client, p, { dealId: 'deal_nope' }))).toMatchObject({ code: 'purchase_not_found' });
    expect(await failureOf(open(client, p, { type: C.CaseType.CASE_TYPE_UNSPECIFIED }))).toMatchObject({ code: 'validation_failed', details: { field: 'type' } });
    expect(await failureOf(open(client, p, { reason: '' }))).toMatchObject({ code: 'validation_failed' });
    expect(await failureOf(open(client, p, { amount: '0' }))).toMatchObject({ code: 'invalid_amount' });
    expect(await failureOf(open(client, p, { amount: 'ten' }))).toMatchObject({ code: 'invalid_amount' });
    expect(await failureOf(open(client, p, { amount: '70.000001' }))).toMatchObject({ code: 'refund_exceeds_paid', details: { paid: '70', refunded: '0', requested: '70.000001' } });
    const { rows: after } = await h.sql.query('SELECT count(*)::int AS n FROM purchase_cases');
    expect(after).toEqual(before);
  });
});

describe('moving a case and crediting the buyer', () => {
  it('should run open → under_review → approved → closed, credit exactly the amount once and sign the refund receipt', async () => {
    const p = await bought(h, client);
    const c = await open(client, p, { amount: '20', type: C.CaseType.CASE_TYPE_RETURN });
    const before = await h.usd(p.buyer);
    const merchantBefore = await h.merchantSettled();

    // The buyer adds evidence but may not move the status; a skipped step is refused.
    const withEvidence = await client.updateCase(C.UpdateCaseRequest.fromPartial({ actor: agent(p.buyer), caseId: c.caseId, addEvidenceRefs: ['photo-2', 'photo-2'], note: 'see the box' }));
    expect(withEvidence.case!.evidenceRefs).toEqual(['photo-2']);
    expect(await failureOf(move(client, c.caseId, 'under_review', agent(p.buyer)))).toMatchObject({ code: 'operator_required' });
    expect(await failureOf(move(client, c.caseId, 'approved'))).toMatchObject({ code: 'invalid_state', details: { current: 'open', wanted: 'approved' } });
    expect(await failureOf(client.updateCase(C.UpdateCaseRequest.fromPartial({ actor: operator, caseId: c.caseId, note: 'only a note' })))).toMatchObject({ code: 'validation_failed' });

    await move(client, c.caseId, 'under_review');
    const approved = await move(client, c.caseId, 'approved');
    expect(approved.case).toMatchObject({ status: C.CaseStatus.CASE_STATUS_APPROVED, refundState: C.RefundState.REFUND_STATE_CREDITED, refundReceiptId: expect.any(String) });
    const receipt = JSON.parse(approved.refundReceiptJson!);
    expect(receipt).toMatchObject({ receipt_id: approved.case!.refundReceiptId, kind: 'purchase_refund', payer: 'merchant:sandbox-merchant.local', payee: p.buyer, amount: '20', currency: 'USD', refunds_receipt_id: p.receiptId });
    const { signature, ...payload } = receipt;
    expect(verifyCanonical(payload, signature, payload.signer_public_key)).toBe(true);
    expect((await h.walletSql.query('SELECT kind::text, signature FROM receipts WHERE receipt_id = $1', [receipt.receipt_id])).rows).toEqual([{ kind: 'purchase_refund', signature }]);

    expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('20'), held: 0n });
    expect(await h.merchantSettled()).toBe(merchantBefore - parseAmount('20'));
    expect(await refunded(p.dealId)).toBe(String(parseAmount('20')));

    // Decided: no second approval, no more evidence; closing is the last move.
    expect(await failureOf(move(client, c.caseId, 'approved'))).toMatchObject({ code: 'invalid_state', details: { current: 'approved', wanted: 'approved' } });
    expect(await failureOf(client.updateCase(C.UpdateCaseRequest.fromPartial({ actor: agent(p.buyer), caseId: c.caseId, addEvidenceRefs: ['late'] })))).toMatchObject({
      code: 'invalid_state',
      details: { current: 'approved', wanted: 'add_evidence' },
    });
    const closed = await move(client, c.caseId, 'closed');
    expect(closed.case).toMatchObject({ status: C.CaseStatus.CASE_STATUS_CLOSED, refundState: C.RefundState.REFUND_STATE_CREDITED });
    expect(closed.refundReceiptJson).toBeUndefined();
    expect(await h.usd(p.buyer)).toEqual({ available: before.available + parseAmount('20'), held: 0n });

    const { events } = await client.listCaseEvents(C.ListCaseEventsRequest.fromPartial({ actor: operator, caseId: c.caseId }));
    expect(events.map((e) => [e.seq, e.type, e.fromStatus ?? null, e.toStatus ?? null, e.actor])).toEqual([
      [1, 'opened', null, C.CaseStatus.CASE_STATUS_OPEN, p.buyer],
      [2, 'evidence_added', null, null, p.buyer],
      [3, 'status_changed', C.CaseStatus.CASE_STATUS_OPEN, C.CaseStatus.CASE_STATUS_UNDER_REVIEW, 'operator'],
      [4, 'status_changed', C.CaseStatus.CASE_STATUS_UNDER_REVIEW, C.CaseStatus.CASE_STATUS_APPROVED, 'operator'],
      [5, 'refund_credited', null, null, 'system:commerce'],
      [6, 'status_changed', C.CaseStatus.CASE_STATUS_APPROVED, C.CaseStatus.CASE_STATUS_CLOSED, 'operator'],
    ]);
    expect(events[1]).toMatchObject({ evidenceRefs: ['photo-2'], note: 'see the box' });
    expect(events[4]).toMatchObject({ amount: '20', receiptId: receipt.receipt_id });
    const { rows: outbox } = await h.sql.query<{ type: string }>(`SELECT type FROM outbox_events WHERE payload->>'subject_id' = $1 ORDER BY created_at, id`, [c.caseId]);
    expect(outbox.map((r) => r.type)).toEqual([
      'exchange.commerce.case.opened',
      'exchange.commerce.case.evidence_added',
      'exchange.commerce.case.status_changed',
      'exchange.commerce.case.status_changed',
      'exchange.commerce.case.refund_credited',
      'exchange.commerce.case.status_changed',
    ]);

    // Pages of one event follow seq.
    const first = await client.listCaseEvents({ actor: agent(p.buyer), caseId: c.caseId, page: { limit: 4, cursor: '' } });
    const rest = await client.listCaseEvents({ actor: agent(p.buyer), caseId: c.caseId, page: { limit: 4, cursor: first.page!.nextCursor } });
    expect([...first.events, ...rest.events].map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rest.page!.nextCursor).toBe('');
    await h.expectLedgerOk();
  });

  it('should refuse an approval that would refund more than was paid, change nothing, and let it be denied', async () => {
    const p = await bought(h, client);
    const big = await open(client, p, { amount: '50' });
    const other = await open(client, p, { amount: '30' });
    for (const c of [big, other]) await move(client, c.caseId, 'under_review');
    await move(client, big.caseId, 'approved');
    const before = await h.usd(p.buyer);

    expect(await failureOf(move(client, other.caseId, 'approved'))).toMatchObject({ code: 'refund_exceeds_paid', details: { paid: '70', refunded: '50', requested: '30' } });
    expect((await client.getCase({ actor: operator, caseId: other.caseId })).case).toMatchObject({ status: C.CaseStatus.CASE_STATUS_UNDER_REVIEW, refundState: C.RefundState.REFUND_STATE_NONE });
    expect(await refunded(p.dealId)).toBe(String(parseAmount('50')));
    expect(await h.usd(p.buyer)).toEqual(before);
    // What remains is the default of a new case; more than that is refused at opening.
    expect((await open(client, p)).amount).toBe('20');
    expect(await failureOf(open(client, p, { amount: '21' }))).toMatchObject({ code: 'refund_exceeds_paid' });
    expect((await move(client, other.caseId, 'denied')).case).toMatchObject({ status: C.CaseStatus.CASE_STATUS_DENIED, refundState: C.RefundState.REFUND_STATE_NONE });
    await h.expectLedgerOk();
  });

  it('should let only the buyer and the operator read a case and its events', async () => {
    const p = await bought(h, client);
    const c = await open(client, p);
    const stranger = await h.newBuyer();
    expect(await failureOf(client.getCase({ actor: agent(stranger), caseId: c.caseId }))).toMatchObject({ code: 'not_deal_buyer' });
    expect(await failureOf(client.listCaseEvents(C.ListCaseEventsRequest.fromPartial({ actor: agent(stranger), caseId: c.caseId })))).toMatchObject({ code: 'not_deal_buyer' });
    expect(await failureOf(client.updateCase(C.UpdateCaseRequest.fromPartial({ actor: agent(stranger), caseId: c.caseId, addEvidenceRefs: ['x'] })))).toMatchObject({ code: 'not_deal_buyer' });
    expect(await failureOf(client.getCase({ actor: operator, caseId: 'case_nope' }))).toMatchObject({ code: 'case_not_found' });
    expect(await failureOf(client.listCaseEvents({ actor: operator, caseId: c.caseId, page: { limit: 1, cursor: 'not-a-cursor' } }))).toMatchObject({ code: 'invalid_cursor' });
  });
});
