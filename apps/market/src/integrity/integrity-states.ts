import { DomainError, errors } from '@exchange/platform';

// Market integrity (README "Market integrity"): the market-wide safety state, the kill switches
// and what each of them blocks. Pure: the service reads the row, these rules decide.

export const INTEGRITY_STATES = ['normal', 'elevated', 'restricted', 'halted'] as const;
export type IntegrityStateName = (typeof INTEGRITY_STATES)[number];

/** In the order every snapshot lists them. */
export const KILL_SWITCHES = ['new_contracts', 'awards', 'settlements', 'withdrawals', 'faucet', 'read_only'] as const;
export type KillSwitchName = (typeof KILL_SWITCHES)[number];

/** What a request is about to do, as the gate sees it. */
export type IntegrityAction = 'new_contract' | 'award' | 'settle' | 'withdrawal' | 'faucet' | 'mutation';

export interface KillSwitchState {
  name: KillSwitchName;
  enabled: boolean;
  reason: string | null;
  setBy: string | null;
  updatedAt: Date | null;
}

export interface Integrity {
  state: IntegrityStateName;
  since: Date;
  reason: string | null;
  setBy: string | null;
  /** All six, in KILL_SWITCHES order (absent rows are disabled). */
  killSwitches: KillSwitchState[];
  walletControlsVersion: number;
  walletSyncedVersion: number;
}

export function isIntegrityState(s: string): s is IntegrityStateName {
  return (INTEGRITY_STATES as readonly string[]).includes(s);
}

export function isKillSwitchName(s: string): s is KillSwitchName {
  return (KILL_SWITCHES as readonly string[]).includes(s);
}

/**
 * Any other state may be entered directly, up or down: an operator in an incident halts in one
 * call (normal → halted), and lowering is free. Only the same state again is 409 invalid_state
 * (a no-op change would write a misleading audit row).
 */
export function checkStateChange(current: IntegrityStateName, wanted: IntegrityStateName): void {
  if (current === wanted) throw errors.invalidState('market integrity', current, wanted);
}

/** Which switch blocks which action (read_only blocks every one, see `enforcement`). */
const SWITCH_OF: Record<Exclude<IntegrityAction, 'mutation'>, KillSwitchName> = {
  new_contract: 'new_contracts',
  award: 'awards',
  settle: 'settlements',
  withdrawal: 'withdrawals',
  faucet: 'faucet',
};

const unavailable = (code: string, message: string) => errors.unavailable(code, message);

/**
 * null when the action may go ahead, else the 503 it gets. Precedence: read-only mode, then the
 * action's kill switch, then the state (restricted: new contracts; halted: new contracts, awards
 * and settlements). Money going back (refunds, releases) is never an action here: always allowed.
 */
export function enforcement(integrity: Pick<Integrity, 'state' | 'killSwitches'>, action: IntegrityAction): DomainError | null {
  const on = (name: KillSwitchName) => integrity.killSwitches.some((k) => k.name === name && k.enabled);
  if (on('read_only')) return unavailable('read_only', 'the exchange is in read-only mode');
  if (action === 'mutation') return null;
  const name = SWITCH_OF[action];
  if (on(name)) return unavailable(`kill_switch:${name}`, `${name.replace('_', ' ')} are switched off`);
  if (integrity.state === 'halted' && (action === 'new_contract' || action === 'award' || action === 'settle')) {
    return unavailable('market_halted', 'the market is halted');
  }
  if (integrity.state === 'restricted' && action === 'new_contract') {
    return unavailable('market_restricted', 'the market is restricted: no new contracts');
  }
  return null;
}

/** The controls wallet-ledger honours: read-only, its three switches, and settlements while halted. */
export function walletControls(integrity: Pick<Integrity, 'state' | 'killSwitches'>): { readOnly: boolean; killSwitches: string[] } {
  const on = new Set(integrity.killSwitches.filter((k) => k.enabled).map((k) => k.name));
  if (integrity.state === 'halted') on.add('settlements');
  return {
    readOnly: on.has('read_only'),
    killSwitches: (['withdrawals', 'faucet', 'settlements'] as const).filter((n) => on.has(n)),
  };
}
