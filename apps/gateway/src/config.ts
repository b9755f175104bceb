import { readConfig } from '@exchange/platform';
import { Type, type Static } from 'typebox';
// The repository's version; the JSON is bundled by esbuild, so no file is read at run time.
// eslint-disable-next-line @nx/enforce-module-boundaries
import packageJson from '../../../package.json';

// Environment of the gateway, read once (DESIGN §7). Nothing else in the app reads process.env.
export const GatewayConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  IDENTITY_GRPC_URL: Type.String({ minLength: 1 }),
  /** wallet-ledger gRPC `host:port` (balances, holds, deposits, withdrawals, receipts). */
  WALLET_LEDGER_GRPC_URL: Type.String({ minLength: 1 }),
  /** market gRPC `host:port` (contracts, listings, offers, results, verification, disputes). */
  MARKET_GRPC_URL: Type.String({ minLength: 1 }),
  /** registry gRPC `host:port` (objects, artifacts, attestations, casefiles, alias tokens). */
  REGISTRY_GRPC_URL: Type.String({ minLength: 1 }),
  /** commerce gRPC `host:port` (UCP platform: merchant profiles, checkouts, mandates, order webhooks). */
  COMMERCE_GRPC_URL: Type.String({ minLength: 1 }),
  /** workflows gRPC `host:port` (multi-stage runs, tasks, task event subscriptions). */
  WORKFLOWS_GRPC_URL: Type.String({ minLength: 1 }),
  /** telemetry gRPC `host:port` (event feeds and exports, timelines, categories, matching signals, reports, rollups, outcomes). */
  TELEMETRY_GRPC_URL: Type.String({ minLength: 1 }),
  /**
   * The gateway's public base URL (`https://exchange.example`), when it sits behind a proxy: the
   * order-webhook receiver rebuilds the URL a merchant signed (RFC 9421 `@authority`, `@path`) from it.
   * Unset: from the request's protocol and Host header.
   */
  PUBLIC_BASE_URL: Type.Optional(Type.String({ minLength: 1, pattern: '^https?://[^/?#]+(/[^?#]*)?$' })),
  /** Largest artifact content accepted by POST /v1/artifacts (and archive by /ui/casefile/verify). */
  ARTIFACT_MAX_BYTES: Type.Integer({ minimum: 1, default: 25 * 1024 * 1024 }),
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** NATS (JetStream) server: identity's agent events keep the agent cache current (live, every replica). */
  NATS_URL: Type.Optional(Type.String({ minLength: 1 })),
  EXCHANGE_ENV: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], { default: 'sandbox' }),
  /** Sandbox: the single operator token (named "default"). */
  OPERATOR_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Production: `name=token,name2=token2`. */
  OPERATOR_TOKENS: Type.Optional(Type.String({ minLength: 1 })),
  /** Base64 32-byte ed25519 seed; only its public key is used (published by /health and /skill.md). */
  EXCHANGE_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Alternative to EXCHANGE_SIGNING_KEY: the base64 public key alone. */
  EXCHANGE_PUBLIC_KEY: Type.Optional(Type.String({ minLength: 1 })),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1, default: 60_000 }),
  RATE_LIMIT_ANONYMOUS: Type.Integer({ minimum: 1, default: 300 }),
  RATE_LIMIT_OPERATOR: Type.Integer({ minimum: 1, default: 6000 }),
  RATE_LIMIT_SANDBOX_UNVERIFIED: Type.Integer({ minimum: 1, default: 120 }),
  RATE_LIMIT_MAINNET_BASIC: Type.Integer({ minimum: 1, default: 600 }),
  RATE_LIMIT_MAINNET_ATTESTED: Type.Integer({ minimum: 1, default: 1200 }),
  RATE_LIMIT_MAINNET_VERIFIED: Type.Integer({ minimum: 1, default: 3000 }),
  RATE_LIMIT_MAINNET_INSTITUTIONAL: Type.Integer({ minimum: 1, default: 10_000 }),
  /**
   * Failed authentications (missing/wrong credentials, bad or expired signature, reused nonce) per
   * IP per window; past it every authenticated request from that IP is 429 before any work.
   */
  RATE_LIMIT_AUTH_FAILURES: Type.Integer({ minimum: 1, default: 30 }),
  /** Anonymous casefile verifications (POST /v1/casefiles/verify, /ui/casefile/verify) per IP per window. */
  RATE_LIMIT_CASEFILE_VERIFY: Type.Integer({ minimum: 1, default: 30 }),
  /** Namespace of the rate-limit keys in Redis (several gateways of one deployment share it). */
  RATE_LIMIT_REDIS_PREFIX: Type.String({ minLength: 1, default: 'exchange-gateway-rl:' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /** How long (ms) an agent's identity level / status stays cached for rate limits and freeze checks. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  /**
   * How long (ms) a cached agent's active keys verify agent signatures in the gateway itself
   * (0 = identity verifies every signature). Bounds how late a revocation or freeze made through
   * ANOTHER gateway replica is seen when identity's events do not reach this one (no NATS_URL,
   * or NATS down).
   */
  AGENT_KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 2000 }),
  /** How long (ms) the market's integrity snapshot (read_only, kill switches) stays cached for the gateway's guard. */
  GATEWAY_INTEGRITY_CACHE_MS: Type.Integer({ minimum: 0, default: 1000 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  VERSION: Type.String({ default: packageJson.version }),
});

export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export function readGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return readConfig(GatewayConfigSchema, env);
}
