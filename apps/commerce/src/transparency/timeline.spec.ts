import type { LifecycleRow } from '../lifecycle/lifecycle.model';
import { buildTimeline } from './timeline';

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, s));
const life = (seq: number, kind: string, t: Date): LifecycleRow => ({
  commerceSessionId: 'cs_1', seq, kind, status: 'ready_for_complete', approval: 'not_required', paymentStage: 'none', total: 12_500_000n, currency: 'USD', reason: null, actor: 'buyer', at: t,
});

describe('purchase timeline', () => {
  it('should merge every source in time order with a stable order on ties', () => {
    const entries = buildTimeline({
      commerceSessionId: 'cs_1',
      lifecycle: [life(2, 'completed', at(5)), life(1, 'created', at(1))],
      webhooks: [{ webhookId: 'wh_1', orderId: 'ord_1', evidenceId: 'evd_1', receivedAt: at(7) }],
      receipt: { receiptId: 'rcp_1', dealId: 'deal_1', amount: 12_500_000n, currency: 'USD', completedAt: at(5) },
      caseEvents: [
        { eventId: 'ce_2', caseId: 'case_a', seq: 2, type: 'status_changed', fromStatus: 'open', toStatus: 'under_review', actor: 'operator', note: null, evidenceRefs: [], amount: null, receiptId: null, at: at(9) },
        { eventId: 'ce_1', caseId: 'case_a', seq: 1, type: 'opened', fromStatus: null, toStatus: 'open', actor: 'buyer', note: 'broken', evidenceRefs: ['sha256:ab'], amount: 2_000_000n, receiptId: null, at: at(9) },
      ],
      feedback: [{ feedbackId: 'fb_1', rating: 4, comment: 'ok', createdAt: at(7) }],
    });
    expect(entries.map((e) => [e.type, e.sourceId])).toEqual([
      ['session.created', 'cs_1'],
      ['session.completed', 'cs_1'],
      ['receipt', 'rcp_1'],
      ['order_webhook', 'wh_1'],
      ['feedback', 'fb_1'],
      ['case.opened', 'case_a'],
      ['case.status_changed', 'case_a'],
    ]);
    expect(entries[2].details).toEqual({ receipt_id: 'rcp_1', deal_id: 'deal_1', amount: '12.5', currency: 'USD' });
    expect(entries[5].details).toMatchObject({ event_id: 'ce_1', amount: '2', evidence_refs: ['sha256:ab'], to_status: 'open' });
    expect(entries[0].details).toMatchObject({ seq: 1, total: '12.5', status: 'ready_for_complete', payment_stage: 'none' });
  });
});
