import { errors } from '@exchange/platform';
import { IDENTITY_LEVELS, type ExchangeEnvironment, type IdentityLevel } from './agent.model';

/**
 * Which level an agent may be moved to from each level (DESIGN §4 Identity): up exactly one step,
 * down any number of steps. Staying at the same level is not a transition.
 */
export const LEVEL_TRANSITIONS: Readonly<Record<IdentityLevel, readonly IdentityLevel[]>> = {
  SANDBOX_UNVERIFIED: ['MAINNET_BASIC'],
  MAINNET_BASIC: ['MAINNET_ATTESTED', 'SANDBOX_UNVERIFIED'],
  MAINNET_ATTESTED: ['MAINNET_VERIFIED', 'MAINNET_BASIC', 'SANDBOX_UNVERIFIED'],
  MAINNET_VERIFIED: ['MAINNET_INSTITUTIONAL', 'MAINNET_ATTESTED', 'MAINNET_BASIC', 'SANDBOX_UNVERIFIED'],
  MAINNET_INSTITUTIONAL: ['MAINNET_VERIFIED', 'MAINNET_ATTESTED', 'MAINNET_BASIC', 'SANDBOX_UNVERIFIED'],
};

export function isIdentityLevel(value: string): value is IdentityLevel {
  return (IDENTITY_LEVELS as readonly string[]).includes(value);
}

export function levelRank(level: IdentityLevel): number {
  return IDENTITY_LEVELS.indexOf(level);
}

/** Throws 409 `invalid_state` (details current/wanted) unless `current → wanted` is in the table. */
export function assertLevelChange(current: IdentityLevel, wanted: IdentityLevel): void {
  if (!LEVEL_TRANSITIONS[current].includes(wanted)) throw errors.invalidState('agent identity_level', current, wanted);
}

/** The level a registration gets when it names none. */
export function defaultRegistrationLevel(environment: ExchangeEnvironment): IdentityLevel {
  return environment === 'sandbox' ? 'SANDBOX_UNVERIFIED' : 'MAINNET_BASIC';
}

/**
 * Sandbox registers only SANDBOX_UNVERIFIED: mainnet levels need environment isolation (spec §3
 * rule 1). Mainnet, conversely, has no use for sandbox agents.
 */
export function assertRegistrableLevel(environment: ExchangeEnvironment, level: IdentityLevel): void {
  const allowed = environment === 'sandbox' ? level === 'SANDBOX_UNVERIFIED' : level !== 'SANDBOX_UNVERIFIED';
  if (!allowed) {
    throw errors.permissionDenied(
      'identity_level_not_allowed',
      `identity_level ${level} cannot be registered in the ${environment} environment`,
      { identity_level: level, environment },
    );
  }
}
