import { DomainError } from '@exchange/platform';
import type { ContractStatus } from './model';
import { canTransition, checkDisputeWindow, CONTRACT_TRANSITIONS, transition } from './states';

const ALL: ContractStatus[] = ['open', 'awarded', 'delivered', 'accepted', 'settled', 'disputed', 'refunded', 'split', 'cancelled', 'expired', 'corrected'];

const ALLOWED: Array<[ContractStatus, ContractStatus]> = [
  ['open', 'awarded'],
  ['open', 'cancelled'],
  ['open', 'expired'],
  ['awarded', 'delivered'],
  ['awarded', 'cancelled'],
  ['awarded', 'expired'],
  ['awarded', 'disputed'],
  ['delivered', 'accepted'],
  ['delivered', 'awarded'],
  ['delivered', 'disputed'],
  ['accepted', 'settled'],
  ['accepted', 'disputed'],
  ['settled', 'disputed'],
  ['settled', 'corrected'],
  ['disputed', 'settled'],
  ['disputed', 'refunded'],
  ['disputed', 'split'],
];

describe('contract transitions', () => {
  it('should allow exactly the moves of the contract table', () => {
    for (const from of ALL) {
      for (const to of ALL) {
        const expected = ALLOWED.some(([f, t]) => f === from && t === to);
        expect([from, to, canTransition('contract', from, to)]).toEqual([from, to, expected]);
      }
    }
    expect(Object.values(CONTRACT_TRANSITIONS).flat()).toHaveLength(ALLOWED.length);
  });

  it('should throw 409 invalid_state naming current and wanted for an illegal move', () => {
    let caught: unknown;
    try {
      transition('contract', 'settled', 'open');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({ code: 'invalid_state', message: 'contract is settled, cannot become open', details: { current: 'settled', wanted: 'open' } });
  });

  it('should return the wanted status for a legal move', () => {
    expect(transition('contract', 'open', 'awarded')).toBe('awarded');
  });
});

describe('offer, result and dispute transitions', () => {
  it('should let a submitted offer become awarded, rejected or withdrawn and nothing else move', () => {
    for (const to of ['awarded', 'rejected', 'withdrawn'] as const) expect(canTransition('offer', 'submitted', to)).toBe(true);
    for (const from of ['awarded', 'rejected', 'withdrawn'] as const) {
      for (const to of ['submitted', 'awarded', 'rejected', 'withdrawn'] as const) expect(canTransition('offer', from, to)).toBe(false);
    }
    expect(() => transition('offer', 'withdrawn', 'awarded')).toThrow('offer is withdrawn, cannot become awarded');
  });

  it('should let a submitted result become accepted or rejected only', () => {
    expect(canTransition('result', 'submitted', 'accepted')).toBe(true);
    expect(canTransition('result', 'submitted', 'rejected')).toBe(true);
    expect(canTransition('result', 'accepted', 'rejected')).toBe(false);
    expect(canTransition('result', 'rejected', 'accepted')).toBe(false);
  });

  it('should let an open dispute be resolved once', () => {
    expect(canTransition('dispute', 'open', 'resolved')).toBe(true);
    expect(() => transition('dispute', 'resolved', 'resolved')).toThrow('dispute is resolved, cannot become resolved');
  });
});

describe('checkDisputeWindow', () => {
  const settledAt = new Date('2026-01-01T00:00:00Z');
  it('should accept a dispute up to the end of the window', () => {
    expect(() => checkDisputeWindow(settledAt, new Date('2026-01-08T00:00:00Z'), 7)).not.toThrow();
  });
  it('should refuse one after the window with 409 dispute_window_closed', () => {
    expect(() => checkDisputeWindow(settledAt, new Date('2026-01-08T00:00:00.001Z'), 7)).toThrow(
      expect.objectContaining({ code: 'dispute_window_closed' }),
    );
  });
});
