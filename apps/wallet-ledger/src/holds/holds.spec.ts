import { consumedHold, expiredHold, releasedHold, requireFutureExpiry } from './holds';
import type { Hold } from '../domain/wallet.model';

const t0 = new Date('2026-11-21T10:00:00.000Z');
const t1 = new Date('2026-11-21T10:05:00.000Z');
const hold: Hold = {
  holdId: 'hld_1',
  agentId: 'acme:agent:a',
  amount: 100n,
  currency: 'CREDIT',
  status: 'active',
  expiresAt: null,
  reference: 'ctr_1',
  consumedAmount: null,
  releasedAmount: null,
  consumedToAgentId: null,
  journalEntryIds: ['jrn_0'],
  createdAt: t0,
  updatedAt: t0,
  controller: 'agent',
};

describe('hold moves', () => {
  it('should release the whole hold', () => {
    expect(releasedHold(hold, 'jrn_1', t1)).toMatchObject({ status: 'released', releasedAmount: 100n, journalEntryIds: ['jrn_0', 'jrn_1'], updatedAt: t1 });
  });

  it('should expire the whole hold', () => {
    expect(expiredHold(hold, 'jrn_1', t1)).toMatchObject({ status: 'expired', releasedAmount: 100n });
  });

  it('should consume part of a hold and release the rest', () => {
    expect(consumedHold(hold, { amount: 30n, toAgentId: 'acme:agent:b' }, 'jrn_1', t1)).toMatchObject({
      status: 'consumed',
      consumedAmount: 30n,
      releasedAmount: 70n,
      consumedToAgentId: 'acme:agent:b',
    });
    expect(consumedHold(hold, { amount: null, toAgentId: 'acme:agent:b' }, 'jrn_1', t1)).toMatchObject({ consumedAmount: 100n, releasedAmount: 0n });
  });

  it('should refuse consuming more than held', () => {
    expect(() => consumedHold(hold, { amount: 101n, toAgentId: 'x' }, 'jrn_1', t1)).toThrow(
      expect.objectContaining({ code: 'amount_exceeds_hold', details: { amount: '0.000101', held: '0.0001' } }),
    );
  });

  it.each(['released', 'consumed', 'expired'] as const)('should refuse any move from %s', (status) => {
    const done = { ...hold, status };
    for (const move of [() => releasedHold(done, 'j', t1), () => expiredHold(done, 'j', t1), () => consumedHold(done, { amount: null, toAgentId: 'x' }, 'j', t1)]) {
      expect(move).toThrow(expect.objectContaining({ code: 'invalid_state', details: expect.objectContaining({ current: status }) }));
    }
  });

  it('should want expiries in the future', () => {
    expect(requireFutureExpiry(undefined, t0)).toBeNull();
    expect(requireFutureExpiry(t1, t0)).toEqual(t1);
    expect(() => requireFutureExpiry(t0, t0)).toThrow(expect.objectContaining({ code: 'invalid_expires_at' }));
  });
});
