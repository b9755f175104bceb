import type { UcpProfileJson } from '../domain/ucp-types';

/** The exchange as a UCP platform: its profile and the P-256 key that signs every merchant request. */
export interface PlatformIdentity {
  /** `<EXCHANGE_PUBLIC_URL>/.well-known/ucp` (sent as UCP-Agent: profile="…"). */
  profileUrl: string;
  /** `<EXCHANGE_PUBLIC_URL>/v1/commerce/ucp/webhooks/orders` (the order capability's webhook_url). */
  webhookUrl: string;
  /** The JWK `kid` of the platform signing key (Signature-Input keyid). */
  keyId: string;
  /** The public JWK published in the profile's `signing_keys`. */
  publicJwk: { kid: string; kty: 'EC'; crv: 'P-256'; x: string; y: string; use: 'sig'; alg: 'ES256' };
  /** The private key (node:crypto KeyObject) for RFC 9421 ES256 signatures. */
  privateKey: import('node:crypto').KeyObject;
  /** The platform profile served at GET /.well-known/ucp (valid against the UCP profile schema). */
  profile: UcpProfileJson;
}
