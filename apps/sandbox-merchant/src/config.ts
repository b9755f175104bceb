import { readConfig } from '@exchange/platform';
import { Type, type Static } from 'typebox';

// Environment of the sandbox merchant, read once. Nothing else in the app reads process.env.
export const SandboxMerchantConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8290 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  /** Base URL the merchant is reached at (profile endpoint, links); default http://127.0.0.1:<bound port>. */
  PUBLIC_URL: Type.Optional(Type.String({ minLength: 1 })),
  EXCHANGE_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], { default: 'sandbox' }),
  /** P-256 private key, JWK JSON or PEM; generated at start when unset (sandbox only). */
  MERCHANT_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** `kid` of that key in the profile; default derived from its RFC 7638 thumbprint. */
  MERCHANT_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  /** Where order webhooks are POSTed; none sent when unset. */
  WEBHOOK_URL: Type.Optional(Type.String({ minLength: 1 })),
  WEBHOOK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 20, default: 6 }),
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 1, default: 1000 }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 10_000 }),
  /** Carts whose total (minor units) is above this need the buyer's approval (requires_escalation). */
  ESCALATION_THRESHOLD: Type.Integer({ minimum: 0, default: 50_000 }),
  CURRENCY: Type.String({ pattern: '^[A-Z]{3}$', default: 'USD' }),
  CHECKOUT_TTL_MS: Type.Integer({ minimum: 1, default: 6 * 60 * 60 * 1000 }),
  /** How long a `pending_token` payment stays complete_in_progress. */
  PENDING_PAYMENT_MS: Type.Integer({ minimum: 0, default: 2000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 256 * 1024 }),
  /** Folder of the seed CSVs; default beside the code (sources) or `catalog/` beside the bundle. */
  CATALOG_DIR: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type SandboxMerchantConfig = Static<typeof SandboxMerchantConfigSchema>;

export function readSandboxMerchantConfig(env: Record<string, string | undefined> = process.env): SandboxMerchantConfig {
  return readConfig(SandboxMerchantConfigSchema, env);
}
