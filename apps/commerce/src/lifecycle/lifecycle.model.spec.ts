import { reasonOf, stateLabel, toEntries, type LifecycleRow } from './lifecycle.model';

const row = (seq: number, over: Partial<LifecycleRow>): LifecycleRow => ({
  commerceSessionId: 'cs_x',
  seq,
  kind: 'updated',
  status: 'ready_for_complete',
  approval: 'not_required',
  paymentStage: 'none',
  total: 70_000_000n,
  currency: 'USD',
  reason: null,
  actor: 'buyer',
  at: new Date(`2026-11-01T00:00:0${seq}Z`),
  ...over,
});

describe('session lifecycle', () => {
  it('should chain entries: each from is the previous to', () => {
    const entries = toEntries([
      row(1, { kind: 'created', status: 'ready_for_complete', approval: 'pending' }),
      row(2, { kind: 'approval_requested', approval: 'pending', reason: 'step_up_threshold' }),
      row(3, { kind: 'approval_decided', approval: 'approved', reason: 'approved' }),
      row(4, { kind: 'completed', status: 'completed', approval: 'approved', paymentStage: 'settled' }),
    ]);
    expect(entries.map((e) => [e.seq, e.kind, e.from, e.to])).toEqual([
      [1, 'created', null, 'ready_for_complete/pending/none'],
      [2, 'approval_requested', 'ready_for_complete/pending/none', 'ready_for_complete/pending/none'],
      [3, 'approval_decided', 'ready_for_complete/pending/none', 'ready_for_complete/approved/none'],
      [4, 'completed', 'ready_for_complete/approved/none', 'completed/approved/settled'],
    ]);
    expect(entries[1].reason).toBe('step_up_threshold');
    expect(toEntries([])).toEqual([]);
  });

  it('should label a state and say why a change happened when the state knows', () => {
    expect(stateLabel({ status: 'canceled', approval: 'denied', paymentStage: 'released' })).toBe('canceled/denied/released');
    const s = { approval: 'denied' as const, approvalReason: 'new_merchant', failureReason: 'insufficient_funds' };
    expect(reasonOf('approval_requested', s)).toBe('new_merchant');
    expect(reasonOf('approval_decided', s)).toBe('denied');
    expect(reasonOf('payment_failed', s)).toBe('insufficient_funds');
    expect(reasonOf('updated', s)).toBeNull();
  });
});
