import { walletErrors } from './wallet.errors';

/** The kill switches this service honours. */
export const KILL_SWITCHES = ['withdrawals', 'faucet', 'settlements'] as const;
export type KillSwitch = (typeof KILL_SWITCHES)[number];

export interface Controls {
  readOnly: boolean;
  killSwitches: KillSwitch[];
}

/** Validates and normalizes kill switch names (deduplicated, in KILL_SWITCHES order). */
export function normalizeControls(input: { readOnly: boolean; killSwitches: readonly string[] }): Controls {
  const unknown = input.killSwitches.filter((s) => !(KILL_SWITCHES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw walletErrors.validationFailed(`unknown kill switch ${JSON.stringify(unknown[0])} (known: ${KILL_SWITCHES.join(', ')})`, {
      kill_switches: unknown,
    });
  }
  const on = new Set(input.killSwitches);
  return { readOnly: input.readOnly, killSwitches: KILL_SWITCHES.filter((s) => on.has(s)) };
}

/**
 * Start-up: WALLET_READ_ONLY / WALLET_KILL_SWITCHES switch things on in addition to what was
 * persisted (an operator's switch survives a restart; the environment can only add).
 */
export function withStartupControls(persisted: Controls, fromEnv: Controls): Controls {
  return normalizeControls({
    readOnly: persisted.readOnly || fromEnv.readOnly,
    killSwitches: [...persisted.killSwitches, ...fromEnv.killSwitches],
  });
}

export function sameControls(a: Controls, b: Controls): boolean {
  return a.readOnly === b.readOnly && a.killSwitches.join(',') === b.killSwitches.join(',');
}
