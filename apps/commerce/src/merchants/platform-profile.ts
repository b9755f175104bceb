import { CHECKOUT_CAPABILITY, SHOPPING_SERVICE } from '@exchange/ucp';
import type { UcpProfileJson } from '../domain/ucp-types';
import type { PlatformIdentity } from './platform-identity.model';

// The exchange's UCP 2026-04-08 platform profile (GET /.well-known/ucp at the gateway). The
// platform schema requires `spec` and `schema` on every service and capability, and both must
// be on ucp.dev for dev.ucp.* names (ucp-digest §1). Pure.

export const UCP_VERSION = '2026-04-08';
export const DISCOUNT_CAPABILITY = 'dev.ucp.shopping.discount';
export const ORDER_CAPABILITY = 'dev.ucp.shopping.order';

const spec = (page: string) => `https://ucp.dev/${UCP_VERSION}/specification/${page}`;
const schema = (path: string) => `https://ucp.dev/${UCP_VERSION}/${path}`;

export function platformUrls(publicUrl: string): { profileUrl: string; webhookUrl: string; endpoint: string } {
  const base = publicUrl.replace(/\/+$/, '');
  return { profileUrl: `${base}/.well-known/ucp`, webhookUrl: `${base}/v1/commerce/ucp/webhooks/orders`, endpoint: `${base}/v1/commerce/ucp` };
}

/**
 * `payment_handlers` is required and left empty: the exchange pays merchants through its own
 * ledger (a wallet hold settled to the merchant's account), and a checkout's instrument is taken
 * from the merchant's own handlers, so the platform declares no handler of its own.
 */
export function platformProfile(publicUrl: string, signingKey: PlatformIdentity['publicJwk']): UcpProfileJson {
  const urls = platformUrls(publicUrl);
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [SHOPPING_SERVICE]: [
          { version: UCP_VERSION, spec: spec('overview'), transport: 'rest', endpoint: urls.endpoint, schema: schema('services/shopping/rest.openapi.json') },
        ],
      },
      capabilities: {
        [CHECKOUT_CAPABILITY]: [{ version: UCP_VERSION, spec: spec('checkout'), schema: schema('schemas/shopping/checkout.json') }],
        [DISCOUNT_CAPABILITY]: [
          { version: UCP_VERSION, spec: spec('discount'), schema: schema('schemas/shopping/discount.json'), extends: CHECKOUT_CAPABILITY },
        ],
        [ORDER_CAPABILITY]: [
          { version: UCP_VERSION, spec: spec('order'), schema: schema('schemas/shopping/order.json'), config: { webhook_url: urls.webhookUrl } },
        ],
      },
      payment_handlers: {},
    },
    signing_keys: [signingKey],
  };
}
