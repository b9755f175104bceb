import type { PlatformIdentity } from './platform-identity.model';
import { derivePlatformKey, parsePlatformKey } from './platform-key';
import { platformProfile, platformUrls } from './platform-profile';

export interface PlatformIdentityInput {
  /** COMMERCE_PLATFORM_KEY: a P-256 private JWK (JSON text) with kid; absent → derived from the exchange key. */
  platformKeyJwk?: string;
  /** The exchange ed25519 seed (32 bytes). */
  exchangeSigningKey: Uint8Array;
  /** EXCHANGE_PUBLIC_URL (no trailing slash). */
  publicUrl: string;
}

/** The exchange as a UCP platform: its key (given or derived), profile URL, webhook URL and profile. */
export function createPlatformIdentity(input: PlatformIdentityInput): PlatformIdentity {
  const key = input.platformKeyJwk !== undefined ? parsePlatformKey(input.platformKeyJwk) : derivePlatformKey(input.exchangeSigningKey);
  const urls = platformUrls(input.publicUrl);
  return {
    profileUrl: urls.profileUrl,
    webhookUrl: urls.webhookUrl,
    keyId: key.keyId,
    publicJwk: key.publicJwk,
    privateKey: key.privateKey,
    profile: platformProfile(input.publicUrl, key.publicJwk),
  };
}
