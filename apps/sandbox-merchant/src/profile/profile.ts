import { CHECKOUT_CAPABILITY, DISCOUNT_CAPABILITY, ORDER_CAPABILITY, UCP_VERSION } from '../checkout/checkout';
import { PAYMENT_HANDLER_ID, PAYMENT_HANDLER_NAME } from '../checkout/checkout.view';
import type { SigningKey } from './signing-key';

// The business profile served at /.well-known/ucp (ucp-digest §1). Pure.

/** Served with this header: public, cacheable ≥ 60 s (the platform caches with that floor). */
export const PROFILE_CACHE_CONTROL = 'public, max-age=300';

const spec = (page: string) => `https://ucp.dev/${UCP_VERSION}/specification/${page}`;
const schema = (path: string) => `https://ucp.dev/${UCP_VERSION}/${path}`;

export function businessProfile(baseUrl: string, key: SigningKey): Record<string, unknown> {
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        'dev.ucp.shopping': [
          { version: UCP_VERSION, spec: spec('overview'), transport: 'rest', endpoint: baseUrl, schema: schema('services/shopping/rest.openapi.json') },
        ],
      },
      capabilities: {
        [CHECKOUT_CAPABILITY]: [{ version: UCP_VERSION, spec: spec('checkout'), schema: schema('schemas/shopping/checkout.json') }],
        [DISCOUNT_CAPABILITY]: [
          { version: UCP_VERSION, spec: spec('discount'), schema: schema('schemas/shopping/discount.json'), extends: CHECKOUT_CAPABILITY },
        ],
        [ORDER_CAPABILITY]: [{ version: UCP_VERSION, spec: spec('order'), schema: schema('schemas/shopping/order.json') }],
      },
      payment_handlers: {
        [PAYMENT_HANDLER_NAME]: [
          {
            id: PAYMENT_HANDLER_ID,
            version: UCP_VERSION,
            spec: `${baseUrl}/docs/payment-handler`,
            schema: `${baseUrl}/docs/payment-handler.json`,
            available_instruments: [{ type: 'card' }],
          },
        ],
      },
    },
    signing_keys: [key.publicJwk],
  };
}
