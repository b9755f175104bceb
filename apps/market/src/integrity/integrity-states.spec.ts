import { status } from '@grpc/grpc-js';
import {
  checkStateChange,
  enforcement,
  KILL_SWITCHES,
  walletControls,
  type IntegrityAction,
  type IntegrityStateName,
  type KillSwitchName,
  type KillSwitchState,
} from './integrity-states';

const switches = (...enabled: KillSwitchName[]): KillSwitchState[] =>
  KILL_SWITCHES.map((name) => ({ name, enabled: enabled.includes(name), reason: null, setBy: null, updatedAt: null }));

const ACTIONS: IntegrityAction[] = ['new_contract', 'award', 'settle', 'withdrawal', 'faucet', 'mutation'];

describe('checkStateChange', () => {
  it.each([
    ['normal', 'elevated'],
    ['elevated', 'restricted'],
    ['restricted', 'halted'],
    // Emergency: any higher state directly, in one call.
    ['normal', 'restricted'],
    ['normal', 'halted'],
    ['elevated', 'halted'],
    ['halted', 'restricted'],
    ['halted', 'elevated'],
    ['halted', 'normal'],
    ['restricted', 'normal'],
    ['elevated', 'normal'],
  ] as Array<[IntegrityStateName, IntegrityStateName]>)('should allow %s → %s', (from, to) => {
    expect(() => checkStateChange(from, to)).not.toThrow();
  });

  it.each([
    ['normal', 'normal'],
    ['elevated', 'elevated'],
    ['restricted', 'restricted'],
    ['halted', 'halted'],
  ] as Array<[IntegrityStateName, IntegrityStateName]>)('should refuse %s → %s with invalid_state', (from, to) => {
    expect(() => checkStateChange(from, to)).toThrow(expect.objectContaining({ code: 'invalid_state', details: { current: from, wanted: to } }));
  });
});

describe('enforcement', () => {
  // Each row: state, enabled switches, the expected answer per action (null = allowed).
  const table: Array<[string, IntegrityStateName, KillSwitchName[], Record<IntegrityAction, string | null>]> = [
    ['normal', 'normal', [], { new_contract: null, award: null, settle: null, withdrawal: null, faucet: null, mutation: null }],
    ['elevated', 'elevated', [], { new_contract: null, award: null, settle: null, withdrawal: null, faucet: null, mutation: null }],
    ['restricted', 'restricted', [], { new_contract: 'market_restricted', award: null, settle: null, withdrawal: null, faucet: null, mutation: null }],
    ['halted', 'halted', [], { new_contract: 'market_halted', award: 'market_halted', settle: 'market_halted', withdrawal: null, faucet: null, mutation: null }],
    ['new_contracts', 'normal', ['new_contracts'], { new_contract: 'kill_switch:new_contracts', award: null, settle: null, withdrawal: null, faucet: null, mutation: null }],
    ['awards', 'normal', ['awards'], { new_contract: null, award: 'kill_switch:awards', settle: null, withdrawal: null, faucet: null, mutation: null }],
    ['settlements', 'normal', ['settlements'], { new_contract: null, award: null, settle: 'kill_switch:settlements', withdrawal: null, faucet: null, mutation: null }],
    ['withdrawals', 'normal', ['withdrawals'], { new_contract: null, award: null, settle: null, withdrawal: 'kill_switch:withdrawals', faucet: null, mutation: null }],
    ['faucet', 'normal', ['faucet'], { new_contract: null, award: null, settle: null, withdrawal: null, faucet: 'kill_switch:faucet', mutation: null }],
    ['read_only', 'normal', ['read_only'], { new_contract: 'read_only', award: 'read_only', settle: 'read_only', withdrawal: 'read_only', faucet: 'read_only', mutation: 'read_only' }],
    // Precedence: read_only first, then the switch, then the state.
    ['read_only over a switch and halted', 'halted', ['read_only', 'awards'], { new_contract: 'read_only', award: 'read_only', settle: 'read_only', withdrawal: 'read_only', faucet: 'read_only', mutation: 'read_only' }],
    ['a switch over halted', 'halted', ['awards', 'new_contracts'], { new_contract: 'kill_switch:new_contracts', award: 'kill_switch:awards', settle: 'market_halted', withdrawal: null, faucet: null, mutation: null }],
  ];

  it.each(table)('%s', (_name, state, enabled, expected) => {
    for (const action of ACTIONS) {
      const err = enforcement({ state, killSwitches: switches(...enabled) }, action);
      expect([action, err?.code ?? null]).toEqual([action, expected[action]]);
      if (err) expect(err.grpcCode).toBe(status.UNAVAILABLE);
    }
  });
});

describe('walletControls', () => {
  it('should pass read_only and the wallet switches, and force settlements while halted', () => {
    expect(walletControls({ state: 'normal', killSwitches: switches() })).toEqual({ readOnly: false, killSwitches: [] });
    expect(walletControls({ state: 'normal', killSwitches: switches('awards', 'new_contracts', 'faucet', 'read_only') })).toEqual({ readOnly: true, killSwitches: ['faucet'] });
    expect(walletControls({ state: 'halted', killSwitches: switches('withdrawals') })).toEqual({ readOnly: false, killSwitches: ['withdrawals', 'settlements'] });
    expect(walletControls({ state: 'restricted', killSwitches: switches('settlements') })).toEqual({ readOnly: false, killSwitches: ['settlements'] });
  });
});
