import type { UcpProfile, UcpSigningKey } from './profile-types';

export const SHOPPING_SERVICE = 'dev.ucp.shopping';

/**
 * The REST base URL of a business's shopping service, without trailing slash: UCP REST paths
 * (`/checkout-sessions`, …) are appended to it. With `version`, the binding of that version; else
 * the newest REST binding. Undefined when the business offers no REST binding.
 */
export function shoppingRestEndpoint(profile: UcpProfile, version?: string): string | undefined {
  const bindings = (profile.ucp.services?.[SHOPPING_SERVICE] ?? []).filter(
    (s) => s.transport === 'rest' && typeof s.endpoint === 'string' && (version === undefined || s.version === version),
  );
  const newest = bindings.reduce<(typeof bindings)[number] | undefined>((best, s) => (best === undefined || s.version > best.version ? s : best), undefined);
  return newest?.endpoint?.replace(/\/+$/, '');
}

/** The public key (JWK) a profile publishes under `kid`, to verify its signatures. */
export function findSigningKey(profile: UcpProfile, kid: string): UcpSigningKey | undefined {
  return profile.signing_keys?.find((key) => key.kid === kid);
}
