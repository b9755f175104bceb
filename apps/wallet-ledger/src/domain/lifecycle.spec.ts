import { confirmedDeposit, expiredDeposit } from './deposits';
import { validateDestination } from './payout-destination';
import type { Deposit, Withdrawal } from './wallet.model';
import { movedWithdrawal, refundsFunds, sandboxPayoutResult } from './withdrawals';

const t0 = new Date('2026-11-21T10:00:00.000Z');
const t1 = new Date('2026-11-21T11:00:00.000Z');

describe('deposit moves', () => {
  const deposit: Deposit = {
    depositId: 'dep_1', agentId: 'a:agent:b', amount: 5n, currency: 'EUR', method: 'bank', reference: null,
    status: 'pending', journalEntryId: null, createdAt: t0, updatedAt: t0,
  };

  it('should confirm with the crediting entry, and expire without one', () => {
    expect(confirmedDeposit(deposit, 'jrn_1', t1)).toMatchObject({ status: 'confirmed', journalEntryId: 'jrn_1', updatedAt: t1 });
    expect(expiredDeposit(deposit, t1)).toMatchObject({ status: 'expired', journalEntryId: null });
  });

  it('should refuse resolving a deposit twice', () => {
    const confirmed = confirmedDeposit(deposit, 'jrn_1', t1);
    expect(() => expiredDeposit(confirmed, t1)).toThrow(expect.objectContaining({ code: 'invalid_state', details: { current: 'confirmed', wanted: 'expired' } }));
    expect(() => confirmedDeposit(confirmed, 'jrn_2', t1)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });
});

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

describe('validateDestination', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('should refuse a crypto address that is a signing key, in hex too', () => {
    expect(() => validateDestination('crypto_address', { address: Buffer.alloc(32, 7).toString('hex') }, [key])).toThrow(
      expect.objectContaining({ code: 'signing_key_reuse' }),
    );
  });

  it('should want an address for crypto and bounded details', () => {
    expect(() => validateDestination('crypto_address', {}, [key])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => validateDestination('bank_account', { iban: 'x'.repeat(513) }, [])).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => validateDestination('sandbox', { simulate: 'fail' }, [key])).not.toThrow();
  });
});
