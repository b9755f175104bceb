import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Environment of the commerce service, read once by `readConfig` (no process.env elsewhere). */
export const CommerceConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** host:port of identity (buyer and signer status, mandate and approval signatures). */
  IDENTITY_GRPC_URL: grpcAddress(),
  /** host:port of wallet-ledger (purchase holds, settlement to merchants, receipts). */
  WALLET_LEDGER_GRPC_URL: grpcAddress(),
  /** host:port of the market (a checkout origin's contract: its buyer and awarded seller). */
  MARKET_GRPC_URL: grpcAddress(),
  /** host:port of workflows (a checkout origin's workflow run: is it the buyer's). */
  WORKFLOWS_GRPC_URL: grpcAddress(),
  /** Base64 of the 32-byte ed25519 seed of the exchange key: signs casefile dockets. */
  EXCHANGE_SIGNING_KEY: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  /**
   * The exchange's UCP platform key, a P-256 private JWK (JSON text) with `kid`: signs every merchant
   * request (RFC 9421, ES256) and is published in GET /.well-known/ucp. Unset: derived from
   * EXCHANGE_SIGNING_KEY (HKDF), so every process of one exchange signs with the same key.
   */
  COMMERCE_PLATFORM_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** The exchange's public base URL (the gateway): profile URL, order webhook URL. No trailing slash. */
  EXCHANGE_PUBLIC_URL: Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*[^\\s/])?$', default: 'http://127.0.0.1:8080' }),
  /**
   * JSON object mapping a merchant domain to its base URL, e.g. {"sandbox-merchant.local":"http://127.0.0.1:8290"}:
   * the only way a merchant is reached over plain http (tests and the sandbox merchant).
   */
  MERCHANT_DIRECTORY: Type.String({ default: '{}' }),
  /** How long a fetched merchant profile is reused (UCP: at least 60 s). */
  MERCHANT_PROFILE_TTL_MS: Type.Integer({ minimum: 60_000, default: 300_000 }),
  /** Timeout of one merchant call (profile fetch or checkout operation). */
  MERCHANT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  /** Purchase recovery worker period (finishes completes cut by a crash); 0 disables the timer. */
  COMMERCE_RECOVERY_INTERVAL_MS: Type.Integer({ minimum: 0, default: 2000 }),
  /** A complete whose saga has not moved for this long is taken over by the recovery worker. */
  COMMERCE_RECOVERY_AFTER_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  /** How long an identity answer is reused; 0 = ask every time. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  COMMERCE_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** Tests only: the purchase step after which the process exits (kill tests; README "Purchase saga"). */
  COMMERCE_FAULT_INJECTION: Type.Optional(Type.String({ pattern: '^(after_reserve|after_hold|after_merchant_complete|after_settle)$' })),
});

export type CommerceConfig = Static<typeof CommerceConfigSchema>;
