import type { Deposit } from '../domain/wallet.model';
import { confirmedDeposit, expiredDeposit } from './deposits';

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
