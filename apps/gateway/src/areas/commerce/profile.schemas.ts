import { Type, type Static } from 'typebox';
import { Timestamp } from '../../schemas/common';

// REST shapes of UCP discovery and negotiation (DESIGN §4 Commerce; UCP 2026-04-08): merchant
// profiles as commerce fetched and validated them, and the platform-side negotiation result.
// UCP's own documents (profiles, payment handlers, messages) are JSON objects the UCP schemas
// define, checked by commerce; here they are free-form objects.

export const T = '2026-11-21T18:00:00.000Z';
export const MERCHANT = 'sandbox-merchant.local';

/** A lower-case DNS name; commerce checks it exactly (400 `invalid_merchant_domain`). */
export const MerchantDomain = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'The merchant’s domain: a lower-case DNS name, no scheme, port or path (else 400 `invalid_merchant_domain`)',
  examples: [MERCHANT],
});

/** A JSON object defined by UCP (or the merchant), passed through as sent. */
export const UcpObject = (description: string, example: Record<string, unknown>) => Type.Object({}, { additionalProperties: true, description, examples: [example] });

const CapabilityName = Type.String({ minLength: 1, maxLength: 128, description: 'UCP capability name (reverse DNS)', examples: ['dev.ucp.shopping.checkout'] });

export const MerchantParams = Type.Object({ merchant_domain: MerchantDomain }, { additionalProperties: false });
export const MerchantProfileQuery = Type.Object(
  { refresh: Type.Optional(Type.Boolean({ description: 'Fetch again even when the cached copy is fresh' })) },
  { additionalProperties: false },
);

const profileExample = {
  ucp: {
    version: '2026-04-08',
    services: { 'dev.ucp.shopping': [{ version: '2026-04-08', spec: 'https://ucp.dev/specification/overview', transport: 'rest', endpoint: 'https://sandbox-merchant.local/ucp' }] },
    capabilities: { 'dev.ucp.shopping.checkout': [{ version: '2026-04-08', spec: 'https://ucp.dev/specification/checkout', schema: 'https://ucp.dev/schemas/shopping/checkout.json' }] },
    payment_handlers: {},
  },
  signing_keys: [{ kid: 'merchant-2026-11', kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
};

export const MerchantProfile = Type.Object(
  {
    merchant_domain: Type.String(),
    profile: UcpObject('The merchant’s UCP business profile (`/.well-known/ucp`), validated against the UCP 2026-04-08 schema', profileExample),
    source_url: Type.String({ description: 'The base URL it was fetched from' }),
    fetched_at: Timestamp,
    cache_expires_at: Timestamp,
  },
  {
    additionalProperties: false,
    description: 'A merchant’s UCP profile as the exchange fetched it',
    examples: [{ merchant_domain: MERCHANT, profile: profileExample, source_url: 'https://sandbox-merchant.local', fetched_at: T, cache_expires_at: '2026-11-21T18:05:00.000Z' }],
  },
);
export type MerchantProfileJson = Static<typeof MerchantProfile>;

export const NegotiateBody = Type.Object(
  {
    merchant_domain: MerchantDomain,
    capabilities: Type.Optional(
      Type.Array(CapabilityName, { maxItems: 64, description: 'Capabilities wanted, by name (default: every capability the platform profile offers)' }),
    ),
  },
  { additionalProperties: false, examples: [{ merchant_domain: MERCHANT, capabilities: ['dev.ucp.shopping.checkout', 'dev.ucp.shopping.discount'] }] },
);

export const NEGOTIATION_STATUSES = ['ok', 'capabilities_incompatible', 'version_unsupported'] as const;

const NegotiatedCapability = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    extends: Type.Optional(Type.Array(Type.String(), { description: 'Parent capabilities (extensions only)' })),
  },
  { additionalProperties: false },
);

const negotiationExample = {
  merchant_domain: MERCHANT,
  status: 'ok',
  version: '2026-04-08',
  capabilities: [
    { name: 'dev.ucp.shopping.checkout', version: '2026-04-08' },
    { name: 'dev.ucp.shopping.discount', version: '2026-04-08', extends: ['dev.ucp.shopping.checkout'] },
  ],
  payment_handlers: {},
  messages: [],
  endpoint: 'https://sandbox-merchant.local/ucp',
};

export const Negotiation = Type.Object(
  {
    merchant_domain: Type.String(),
    status: Type.Unsafe<(typeof NEGOTIATION_STATUSES)[number]>({
      type: 'string',
      enum: [...NEGOTIATION_STATUSES],
      description: '`ok`, or why no common ground was found (a result, not an error)',
    }),
    version: Type.String({ description: 'The UCP version both sides speak' }),
    capabilities: Type.Array(NegotiatedCapability, { description: 'The negotiated capabilities (highest common version; orphan extensions pruned)' }),
    payment_handlers: UcpObject('Payment handlers the merchant offers, as in its profile', {}),
    messages: Type.Array(Type.Unknown(), { description: 'UCP messages explaining an incompatible result' }),
    endpoint: Type.String({ description: 'The merchant’s UCP shopping REST endpoint' }),
  },
  { additionalProperties: false, description: 'The result of UCP capability negotiation with a merchant', examples: [negotiationExample] },
);
export type NegotiationJson = Static<typeof Negotiation>;
