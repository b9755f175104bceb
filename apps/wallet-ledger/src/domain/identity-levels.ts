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

/** The faucet is for SANDBOX_UNVERIFIED agents only (DESIGN §4 Identity capabilities). */
export function requireFaucetLevel(level: IdentityLevel): void {
  if (level !== 'SANDBOX_UNVERIFIED') throw walletErrors.identityLevelInsufficient('SANDBOX_UNVERIFIED', level);
}

const MICRO = 1_000_000n;

/**
 * Daily withdrawal limit per currency in micro-units: ATTESTED 1 000, VERIFIED 100 000,
 * INSTITUTIONAL the configured policy; below ATTESTED → identity_level_insufficient.
 */
export function withdrawalLimit(level: IdentityLevel, institutionalLimit: bigint): bigint {
  switch (level) {
    case 'MAINNET_ATTESTED':
      return 1_000n * MICRO;
    case 'MAINNET_VERIFIED':
      return 100_000n * MICRO;
    case 'MAINNET_INSTITUTIONAL':
      return institutionalLimit;
    default:
      throw walletErrors.identityLevelInsufficient('MAINNET_ATTESTED', level);
  }
}
