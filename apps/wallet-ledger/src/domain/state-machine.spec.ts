import { status } from '@grpc/grpc-js';
import {
  canTransition,
  DEPOSIT_TRANSITIONS,
  HOLD_TRANSITIONS,
  transition,
  WITHDRAWAL_TRANSITIONS,
  type TransitionTable,
} from './state-machine';

function allPairs<S extends string>(table: TransitionTable<S>): Array<[S, S, boolean]> {
  const states = Object.keys(table) as S[];
  return states.flatMap((from) => states.map((to): [S, S, boolean] => [from, to, table[from].includes(to)]));
}

describe.each([
  ['hold', HOLD_TRANSITIONS, [['active', 'released'], ['active', 'consumed'], ['active', 'expired']]],
  ['deposit', DEPOSIT_TRANSITIONS, [['pending', 'confirmed'], ['pending', 'expired']]],
  [
    'withdrawal',
    WITHDRAWAL_TRANSITIONS,
    [['requested', 'processing'], ['requested', 'cancelled'], ['processing', 'completed'], ['processing', 'failed']],
  ],
] as Array<[string, TransitionTable<string>, string[][]]>)('%s transitions', (entity, table, allowed) => {
  it('should allow exactly the listed moves', () => {
    const got = allPairs(table).filter(([, , ok]) => ok).map(([a, b]) => [a, b]);
    expect(got).toEqual(allowed);
  });

  it.each(allPairs(table).filter(([, , ok]) => !ok))('should refuse %s → %s with invalid_state', (from, to) => {
    expect(canTransition(table, from, to)).toBe(false);
    expect(() => transition(entity, table, from, to)).toThrow(
      expect.objectContaining({ grpcCode: status.FAILED_PRECONDITION, code: 'invalid_state', details: { current: from, wanted: to } }),
    );
  });
});
