import { Type, type Static } from 'typebox';

// REST shapes of merchant webhooks (DESIGN §4 Commerce): checking a delivery's signature (UCP
// RFC 9421, Standard Webhooks v1/v1a) and the receiver of merchants' order webhooks.

const HeaderName = Type.String({ minLength: 1, maxLength: 256 });

export const WebhookVerifyBody = Type.Object(
  {
    headers: Type.Record(HeaderName, Type.String({ maxLength: 16_384 }), {
      maxProperties: 100,
      description: 'The delivery’s headers, `{name: value}` (names case-insensitive)',
    }),
    body_base64: Type.String({ maxLength: 1_400_000, pattern: '^[A-Za-z0-9+/]*={0,2}$', description: 'The raw body bytes, base64 (standard, padded); ≤ ~1 MiB decoded' }),
    secret: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'Standard Webhooks secret (`whsec_…`) or public key (`whpk_…`), when that scheme is used' }),
    ),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Z]+$', description: 'The method it was delivered with (default POST)' })),
    url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://', description: 'The URL it was delivered to (default: the platform profile’s webhook URL)' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        headers: {
          'content-type': 'application/json',
          'content-digest': 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
          'signature-input': 'sig1=("@method" "@authority" "@path" "content-digest" "content-type");keyid="merchant-2026-11"',
          signature: 'sig1=:MEQCIH…:',
          'ucp-agent': 'profile="https://sandbox-merchant.local/.well-known/ucp"',
        },
        body_base64: 'eyJpZCI6Im9yZF8xIn0=',
      },
    ],
  },
);

export const WEBHOOK_SCHEMES = ['ucp_rfc9421', 'standard_webhooks_v1', 'standard_webhooks_v1a', 'none'] as const;
const Opt = (description: string) => Type.Optional(Type.String({ description }));

export const WebhookVerdict = Type.Object(
  {
    valid: Type.Boolean(),
    scheme: Type.Unsafe<(typeof WEBHOOK_SCHEMES)[number]>({ type: 'string', enum: [...WEBHOOK_SCHEMES], description: 'The signature scheme found' }),
    reason: Opt('Why it is not valid (`signature_missing`, `key_not_found`, `digest_mismatch`, `signature_invalid`, `timestamp_out_of_window`, …)'),
    key_id: Opt('The signing key id (`keyid`) used'),
    merchant_domain: Opt('The merchant whose profile holds the key'),
  },
  {
    additionalProperties: false,
    description: 'Whether a webhook delivery’s signature verifies',
    examples: [{ valid: true, scheme: 'ucp_rfc9421', key_id: 'merchant-2026-11', merchant_domain: 'sandbox-merchant.local' }],
  },
);
export type WebhookVerdictJson = Static<typeof WebhookVerdict>;

export const OrderWebhookAccepted = Type.Object(
  {
    accepted: Type.Literal(true),
    commerce_session_id: Type.Optional(Type.String({ description: 'The checkout session the order belongs to' })),
    duplicate: Type.Boolean({ description: 'A `Webhook-Id` seen before (kept once)' }),
  },
  {
    additionalProperties: false,
    description: 'The order webhook was verified and kept as evidence',
    examples: [{ accepted: true, commerce_session_id: 'cks_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e', duplicate: false }],
  },
);
