import type { PlatformIdentity } from './platform-identity.model';

export interface PlatformIdentityInput {
  /** COMMERCE_PLATFORM_KEY: a P-256 private JWK (JSON text) with kid; absent → derived from the exchange key. */
  platformKeyJwk?: string;
  /** The exchange ed25519 seed (32 bytes). */
  exchangeSigningKey: Uint8Array;
  /** EXCHANGE_PUBLIC_URL (no trailing slash). */
  publicUrl: string;
}

/** PLACEHOLDER until the merchants area lands. */
export function createPlatformIdentity(_input: PlatformIdentityInput): PlatformIdentity {
  throw new Error('createPlatformIdentity: not implemented yet');
}
