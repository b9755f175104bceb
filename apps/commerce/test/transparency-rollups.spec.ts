import { newId } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { grpcError } from './support/mandates-harness';
import { startTransparencyHarness, type TransparencyHarness } from './support/transparency-seed';

// The rollups against a small history written straight into commerce's tables, every figure
// computed by hand below (micro-units: 1 unit = 1 000 000). Two buyers, two currencies, two
// months (September and October 2026 UTC), with instants on the month edges.

const ALICE = 'acme:agent:alice';
const BOB = 'acme:agent:bob';
const operator = { agentId: '', operator: true };
const U = 1_000_000n;

describe('transparency rollups (seeded history, PostgreSQL)', () => {
  let h: TransparencyHarness;
  let p1: { dealId: string; sessionId: string; receiptId: string };

  beforeAll(async () => {
    h = await startTransparencyHarness('commerce_transparency_rollups');
    // Purchases: amount paid / list amount.
    p1 = await h.purchase({ buyer: ALICE, currency: 'USD', amount: 70n * U, listAmount: 80n * U, at: '2026-09-03T10:00:00.000Z' });
    const p2 = await h.purchase({ buyer: ALICE, currency: 'USD', amount: 12_345_678n, listAmount: 12_345_678n, at: '2026-09-30T23:59:59.999Z' });
    const p3 = await h.purchase({ buyer: BOB, currency: 'EUR', amount: 25_500_000n, listAmount: 30n * U, at: '2026-09-15T08:00:00.000Z' });
    const p4 = await h.purchase({ buyer: BOB, currency: 'USD', amount: 40n * U, listAmount: 45n * U, at: '2026-10-01T00:00:00.000Z' });
    await h.purchase({ buyer: ALICE, currency: 'EUR', amount: 10n * U, listAmount: 10n * U, at: '2026-10-20T12:00:00.000Z' });
    // Lifecycle: escalations (sessions with approval_requested) and denied decisions.
    await h.lifecycle('cs_s1', 1, 'created', { at: '2026-09-05T00:00:00.000Z' });
    await h.lifecycle('cs_s1', 2, 'approval_requested', { at: '2026-09-05T00:00:00.000Z' });
    await h.lifecycle('cs_s1', 3, 'approval_requested', { at: '2026-09-05T01:00:00.000Z' });
    await h.lifecycle('cs_s2', 1, 'approval_requested', { at: '2026-09-06T00:00:00.000Z' });
    await h.lifecycle('cs_s2', 2, 'approval_decided', { approval: 'denied', at: '2026-09-07T00:00:00.000Z' });
    await h.lifecycle('cs_s3', 1, 'approval_requested', { currency: 'EUR', at: '2026-09-10T00:00:00.000Z' });
    await h.lifecycle('cs_s3', 2, 'approval_decided', { currency: 'EUR', approval: 'approved', at: '2026-09-11T00:00:00.000Z' });
    await h.lifecycle('cs_s4', 1, 'approval_decided', { approval: 'denied', at: '2026-10-02T00:00:00.000Z' });
    await h.lifecycle('cs_s5', 1, 'approval_requested', { at: '2026-08-31T23:59:59.999Z' });
    // Cases: opened (created_at) and credited (refunded_at).
    await h.caseRow({ dealId: p1.dealId, buyer: ALICE, type: 'refund', amount: 20n * U, currency: 'USD', createdAt: '2026-09-10T00:00:00.000Z', refundedAt: '2026-09-12T00:00:00.000Z' });
    await h.caseRow({ dealId: p1.dealId, buyer: ALICE, type: 'return', amount: 5n * U, currency: 'USD', createdAt: '2026-09-20T00:00:00.000Z' });
    await h.caseRow({ dealId: p3.dealId, buyer: BOB, type: 'chargeback', amount: 25_500_000n, currency: 'EUR', createdAt: '2026-09-25T00:00:00.000Z', refundedAt: '2026-10-03T00:00:00.000Z' });
    await h.caseRow({ dealId: p2.dealId, buyer: ALICE, type: 'refund', amount: 2_345_678n, currency: 'USD', createdAt: '2026-10-05T00:00:00.000Z', refundedAt: '2026-10-06T00:00:00.000Z' });
    await h.caseRow({ dealId: p4.dealId, buyer: BOB, type: 'refund', amount: 1n * U, currency: 'USD', createdAt: '2026-10-07T00:00:00.000Z', status: 'denied' });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const monthly = (window: string) => h.client.getMonthlyRollup({ actor: operator, window });
  const spendSavings = (over: { window?: string; agentId?: string; currency?: string; page?: { limit: number; cursor: string } } = {}) =>
    h.client.getSpendSavingsRollup(commerceV1.GetSpendSavingsRollupRequest.fromPartial({ actor: operator, ...over }));

  describe('monthly', () => {
    it('should sum September per currency exactly', async () => {
      const res = await monthly('2026-09');
      expect(res.window).toBe('2026-09');
      expect(res.from).toEqual(new Date('2026-09-01T00:00:00.000Z'));
      expect(res.to).toEqual(new Date('2026-10-01T00:00:00.000Z'));
      expect(res.currencies).toEqual([
        {
          currency: 'EUR',
          spend: '25.5', // p3
          savings: '4.5', // 30 − 25.5
          purchases: '1',
          escalations: '1', // cs_s3
          approvalsDenied: '0', // cs_s3 was approved
          returns: '0',
          refunds: '0',
          chargebacks: '1', // opened 09-25 (credited in October)
          refunded: '0',
        },
        {
          currency: 'USD',
          spend: '82.345678', // p1 70 + p2 12.345678 (09-30T23:59:59.999 is still September); p4 at 10-01T00:00 is October
          savings: '10', // (80 − 70) + (12.345678 − 12.345678)
          purchases: '2',
          escalations: '2', // cs_s1 (two requests, one session) + cs_s2; cs_s5 is August
          approvalsDenied: '1', // cs_s2
          returns: '1',
          refunds: '1',
          chargebacks: '0',
          refunded: '20', // the refund credited 09-12
        },
      ]);
    });

    it('should sum October per currency exactly', async () => {
      const res = await monthly('2026-10');
      expect(res.currencies).toEqual([
        { currency: 'EUR', spend: '10', savings: '0', purchases: '1', escalations: '0', approvalsDenied: '0', returns: '0', refunds: '0', chargebacks: '0', refunded: '25.5' },
        // p4: 40 paid, 45 − 40 = 5 saved; cs_s4 denied; two refund cases opened (one denied); 2.345678 credited 10-06.
        { currency: 'USD', spend: '40', savings: '5', purchases: '1', escalations: '0', approvalsDenied: '1', returns: '0', refunds: '2', chargebacks: '0', refunded: '2.345678' },
      ]);
    });

    it('should show a month with only an escalation, and nothing for an empty month', async () => {
      expect((await monthly('2026-08')).currencies).toEqual([
        { currency: 'USD', spend: '0', savings: '0', purchases: '0', escalations: '1', approvalsDenied: '0', returns: '0', refunds: '0', chargebacks: '0', refunded: '0' },
      ]);
      expect((await monthly('2026-11')).currencies).toEqual([]);
    });

    it.each(['2026-9', '2026-13', 'September', '', '2026-09-01'])('should refuse window %j with 400 invalid_window', async (window) => {
      expect((await grpcError(monthly(window))).code).toBe('invalid_window');
    });

    it('should refuse an agent with 403 operator_required', async () => {
      expect((await grpcError(h.client.getMonthlyRollup({ actor: { agentId: ALICE, operator: false }, window: '2026-09' }))).code).toBe('operator_required');
    });
  });

  describe('spend-savings', () => {
    it('should give every agent and currency over all time, refunds netted', async () => {
      const res = await spendSavings();
      expect(res.window).toBeUndefined();
      expect(res.rows).toEqual([
        { agentId: ALICE, currency: 'EUR', spend: '10', savings: '0', purchases: '1', refunded: '0', netSpend: '10' },
        // 70 + 12.345678 paid; 10 saved; 20 + 2.345678 credited → net 82.345678 − 22.345678 = 60.
        { agentId: ALICE, currency: 'USD', spend: '82.345678', savings: '10', purchases: '2', refunded: '22.345678', netSpend: '60' },
        // 25.5 paid, 4.5 saved, the chargeback credited 25.5 back → net 0.
        { agentId: BOB, currency: 'EUR', spend: '25.5', savings: '4.5', purchases: '1', refunded: '25.5', netSpend: '0' },
        { agentId: BOB, currency: 'USD', spend: '40', savings: '5', purchases: '1', refunded: '0', netSpend: '40' },
      ]);
      expect(res.page?.nextCursor).toBe('');
    });

    it('should count a month by when money moved: October refunds of September purchases net negative', async () => {
      const res = await spendSavings({ window: '2026-10' });
      expect(res.window).toBe('2026-10');
      expect(res.rows).toEqual([
        { agentId: ALICE, currency: 'EUR', spend: '10', savings: '0', purchases: '1', refunded: '0', netSpend: '10' },
        { agentId: ALICE, currency: 'USD', spend: '0', savings: '0', purchases: '0', refunded: '2.345678', netSpend: '-2.345678' },
        { agentId: BOB, currency: 'EUR', spend: '0', savings: '0', purchases: '0', refunded: '25.5', netSpend: '-25.5' },
        { agentId: BOB, currency: 'USD', spend: '40', savings: '5', purchases: '1', refunded: '0', netSpend: '40' },
      ]);
      expect((await spendSavings({ window: '2026-09' })).rows).toEqual([
        // 82.345678 − 20 (credited 09-12) = 62.345678.
        { agentId: ALICE, currency: 'USD', spend: '82.345678', savings: '10', purchases: '2', refunded: '20', netSpend: '62.345678' },
        { agentId: BOB, currency: 'EUR', spend: '25.5', savings: '4.5', purchases: '1', refunded: '0', netSpend: '25.5' },
      ]);
    });

    it('should filter by agent and currency and page by (agent, currency)', async () => {
      expect((await spendSavings({ agentId: BOB })).rows.map((r) => r.currency)).toEqual(['EUR', 'USD']);
      expect((await spendSavings({ currency: 'USD' })).rows.map((r) => r.agentId)).toEqual([ALICE, BOB]);
      const first = await spendSavings({ page: { limit: 3, cursor: '' } });
      expect(first.rows.map((r) => `${r.agentId}/${r.currency}`)).toEqual([`${ALICE}/EUR`, `${ALICE}/USD`, `${BOB}/EUR`]);
      const second = await spendSavings({ page: { limit: 3, cursor: first.page!.nextCursor } });
      expect(second.rows.map((r) => `${r.agentId}/${r.currency}`)).toEqual([`${BOB}/USD`]);
      expect(second.page?.nextCursor).toBe('');
    });

    it('should refuse a bad window, a foreign cursor and an agent', async () => {
      expect((await grpcError(spendSavings({ window: '2026/10' }))).code).toBe('invalid_window');
      expect((await grpcError(spendSavings({ page: { limit: 0, cursor: 'bm9wZQ' } }))).code).toBe('invalid_cursor');
      expect((await grpcError(h.client.getSpendSavingsRollup(commerceV1.GetSpendSavingsRollupRequest.fromPartial({ actor: { agentId: BOB, operator: false } })))).code).toBe('operator_required');
    });
  });

  describe('purchase timeline (seeded)', () => {
    it('should merge lifecycle, webhook, receipt, case events and feedback in time order', async () => {
      const at = (s: string) => `2026-09-03T10:00:${s}.000Z`;
      await h.lifecycle(p1.sessionId, 1, 'created', { at: at('00'), approval: 'not_required' });
      await h.lifecycle(p1.sessionId, 2, 'completed', { at: '2026-09-03T10:00:00.000Z', status: 'completed', approval: 'not_required' });
      await h.sql.query(`INSERT INTO order_webhooks (merchant_domain, webhook_id, commerce_session_id, order_id, received_at) VALUES ('sandbox-merchant.local', 'wh_1', $1, 'ord_1', $2)`, [p1.sessionId, at('30')]);
      const caseId = (await h.sql.query('SELECT case_id FROM purchase_cases WHERE deal_id = $1 AND type = $2', [p1.dealId, 'refund'])).rows[0].case_id;
      await h.sql.query(
        `INSERT INTO case_events (event_id, case_id, seq, type, from_status, to_status, actor, amount, at) VALUES
          ($1, $3, 2, 'status_changed', 'open', 'approved', 'operator', NULL, '2026-09-12T00:00:00.000Z'),
          ($2, $3, 1, 'opened', NULL, 'open', $4, 20000000, '2026-09-10T00:00:00.000Z')`,
        [newId('evt'), newId('evt'), caseId, ALICE],
      );
      await h.sql.query(`INSERT INTO feedback (feedback_id, deal_id, buyer_agent_id, merchant_domain, rating, comment, created_at) VALUES ('fb_1', $1, $2, 'sandbox-merchant.local', 5, 'great', $3)`, [
        p1.dealId,
        ALICE,
        '2026-09-04T00:00:00.000Z',
      ]);
      const res = await h.client.getPurchaseTimeline({ actor: { agentId: ALICE, operator: false }, dealId: p1.dealId });
      expect(res.commerceSessionId).toBe(p1.sessionId);
      expect(res.entries.map((e) => [e.type, e.sourceId, e.at?.toISOString()])).toEqual([
        ['session.created', p1.sessionId, '2026-09-03T10:00:00.000Z'],
        ['session.completed', p1.sessionId, '2026-09-03T10:00:00.000Z'],
        ['receipt', p1.receiptId, '2026-09-03T10:00:00.000Z'],
        ['order_webhook', 'wh_1', '2026-09-03T10:00:30.000Z'],
        ['feedback', 'fb_1', '2026-09-04T00:00:00.000Z'],
        ['case.opened', caseId, '2026-09-10T00:00:00.000Z'],
        ['case.status_changed', caseId, '2026-09-12T00:00:00.000Z'],
      ]);
      expect(JSON.parse(res.entries[2].detailsJson)).toEqual({ receipt_id: p1.receiptId, deal_id: p1.dealId, amount: '70', currency: 'USD' });
      expect(JSON.parse(res.entries[5].detailsJson)).toMatchObject({ amount: '20', actor: ALICE, to_status: 'open' });
      expect((await h.client.getPurchaseTimeline({ actor: operator, dealId: p1.dealId })).entries).toHaveLength(7);
    });

    it('should refuse another agent (403), an unknown or malformed deal (404) and a missing one (400)', async () => {
      expect((await grpcError(h.client.getPurchaseTimeline({ actor: { agentId: BOB, operator: false }, dealId: p1.dealId }))).code).toBe('not_deal_buyer');
      expect((await grpcError(h.client.getPurchaseTimeline({ actor: operator, dealId: newId('deal') }))).code).toBe('purchase_not_found');
      expect((await grpcError(h.client.getPurchaseTimeline({ actor: operator, dealId: 'deal_\u0000x' }))).code).toBe('purchase_not_found');
      expect((await grpcError(h.client.getPurchaseTimeline({ actor: operator, dealId: '' }))).code).toBe('validation_failed');
    });
  });
});
