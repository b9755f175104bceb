import type { Withdrawal } from '../domain/wallet.model';
import { movedWithdrawal, refundsFunds, sandboxPayoutResult } from './withdrawals';

const t0 = new Date('2026-11-21T10:00:00.000Z');
const t1 = new Date('2026-11-21T11:00:00.000Z');

describe('withdrawal moves', () => {
  const w: Withdrawal = {
    withdrawalId: 'wdr_1', agentId: 'a:agent:b', amount: 5n, currency: 'EUR', payoutDestinationId: 'pod_1',
    status: 'requested', failureReason: null, journalEntryIds: ['jrn_0'], createdAt: t0, updatedAt: t0,
  };

  it('should walk requested → processing → failed with the reason and the refund entry', () => {
    const processing = movedWithdrawal(w, 'processing', t1);
    expect(processing).toMatchObject({ status: 'processing', journalEntryIds: ['jrn_0'] });
    expect(movedWithdrawal(processing, 'failed', t1, { entryId: 'jrn_1', failureReason: 'no' })).toMatchObject({
      status: 'failed', failureReason: 'no', journalEntryIds: ['jrn_0', 'jrn_1'],
    });
  });

  it('should cancel only from requested', () => {
    expect(movedWithdrawal(w, 'cancelled', t1, { entryId: 'jrn_1' }).status).toBe('cancelled');
    const processing = movedWithdrawal(w, 'processing', t1);
    expect(() => movedWithdrawal(processing, 'cancelled', t1)).toThrow(
      expect.objectContaining({ code: 'invalid_state', details: { current: 'processing', wanted: 'cancelled' } }),
    );
  });

  it('should refund failed and cancelled withdrawals only', () => {
    expect(['requested', 'processing', 'completed', 'failed', 'cancelled'].filter((s) => refundsFunds(s as never))).toEqual(['failed', 'cancelled']);
  });

  it('should fail sandbox payouts whose destination says simulate=fail', () => {
    expect(sandboxPayoutResult({ details: { simulate: 'fail' } }).status).toBe('failed');
    expect(sandboxPayoutResult({ details: {} })).toEqual({ status: 'completed' });
  });
});
