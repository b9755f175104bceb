// Commerce protocol (UCP platform): the exchange's platform profile, merchants' business
// profiles, capability negotiation and webhook signature checks. Checkout sessions are
// `client.checkout` (checkout.ts), spending mandates `client.mandates` (mandates.ts).
import { compact } from './market-base';
import { pathSegment, type Transport } from './transport';
import type { api } from './wire';

export type MerchantProfile = api.MerchantProfile;
/** `status`: `ok`, or `capabilities_incompatible` / `version_unsupported` (results, not errors). */
export type Negotiation = api.Negotiation;
export type WebhookVerdict = api.WebhookVerdict;

export interface VerifyWebhookInput {
  /** The delivery's headers as received. */
  headers: Record<string, string>;
  /** The raw body bytes (a string is taken as UTF-8). */
  body: Uint8Array | string;
  /** Standard Webhooks secret (`whsec_…`) or public key (`whpk_…`). */
  secret?: string;
  /** Where it was delivered (RFC 9421 components); default POST to the platform's webhook URL. */
  method?: string;
  url?: string;
}

const base64Of = (body: Uint8Array | string): string => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body)).toString('base64');

export class CommerceApi {
  constructor(private readonly transport: Transport) {}

  /** GET /.well-known/ucp: the exchange's UCP platform profile (public). */
  platformProfile(): Promise<Record<string, unknown>> {
    return this.transport.request({ method: 'GET', path: '/.well-known/ucp' });
  }

  /** GET /v1/commerce/ucp/merchants/{domain}/profile; `refresh` fetches past the cache. */
  merchantProfile(merchantDomain: string, opts: { refresh?: boolean } = {}): Promise<MerchantProfile> {
    return this.transport.request({ method: 'GET', path: `/v1/commerce/ucp/merchants/${pathSegment(merchantDomain)}/profile`, query: { refresh: opts.refresh } });
  }

  /** POST /v1/commerce/ucp/negotiate; `capabilities` default to every one the platform offers. */
  negotiate(merchantDomain: string, capabilities?: string[]): Promise<Negotiation> {
    return this.transport.request({
      method: 'POST',
      path: '/v1/commerce/ucp/negotiate',
      body: compact({ merchant_domain: merchantDomain, capabilities } satisfies api.NegotiateCapabilitiesRequest),
    });
  }

  /** POST /v1/commerce/ucp/webhooks/verify: whether a delivery's signature verifies (`valid`, `scheme`, `reason`). */
  verifyWebhook(input: VerifyWebhookInput): Promise<WebhookVerdict> {
    return this.transport.request({
      method: 'POST',
      path: '/v1/commerce/ucp/webhooks/verify',
      body: compact({ headers: input.headers, body_base64: base64Of(input.body), secret: input.secret, method: input.method, url: input.url } satisfies api.VerifyWebhookRequest),
    });
  }
}
