import { walletErrors } from './wallet.errors';

/** Identity levels in ascending order (DESIGN §4 Identity). */
export const IDENTITY_LEVELS = [
  'SANDBOX_UNVERIFIED',
  'MAINNET_BASIC',
  'MAINNET_ATTESTED',
  'MAINNET_VERIFIED',
  'MAINNET_INSTITUTIONAL',
] as const;
export type IdentityLevel = (typeof IDENTITY_LEVELS)[number];

export function levelRank(level: IdentityLevel): number {
  return IDENTITY_LEVELS.indexOf(level);
}

/**
 * Refuses a level below `required` (403 identity_level_insufficient). Capabilities are cumulative
 * (spec §3 "Adds"): every level at or above `required` passes, so the refusal can never name a
 * level the agent already has.
 */
export function requireLevel(required: IdentityLevel, current: IdentityLevel): void {
  if (levelRank(current) < levelRank(required)) throw walletErrors.identityLevelInsufficient(required, current);
}

const MICRO = 1_000_000n;

/**
 * Daily withdrawal limit per currency in micro-units: ATTESTED 1 000, VERIFIED 100 000,
 * INSTITUTIONAL the configured policy; below ATTESTED → identity_level_insufficient.
 */
export function withdrawalLimit(level: IdentityLevel, institutionalLimit: bigint): bigint {
  requireLevel('MAINNET_ATTESTED', level);
  switch (level) {
    case 'MAINNET_ATTESTED':
      return 1_000n * MICRO;
    case 'MAINNET_VERIFIED':
      return 100_000n * MICRO;
    default: // MAINNET_INSTITUTIONAL, the only level above
      return institutionalLimit;
  }
}
