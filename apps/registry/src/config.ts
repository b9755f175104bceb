import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Environment of the registry service, read once by `readConfig` (no process.env elsewhere). */
export const RegistryConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** Base64 ed25519 private key (32 bytes): delivery receipts, exchange objects, dockets. */
  EXCHANGE_SIGNING_KEY: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  /** host:port of identity (signature checks, agent status). */
  IDENTITY_GRPC_URL: grpcAddress(),
  /** host:port of market (contract parties, casefile records). */
  MARKET_GRPC_URL: grpcAddress(),
  /** host:port of wallet-ledger (receipts in casefiles). */
  WALLET_LEDGER_GRPC_URL: grpcAddress(),
  /** Unset → filesystem store in ARTIFACT_STORE_DIR; `file:///abs/dir`; `s3://bucket?endpoint=…`. */
  ARTIFACT_STORE_URL: Type.Optional(Type.String({ pattern: '^(file|s3)://' })),
  /** Filesystem store directory when ARTIFACT_STORE_URL is unset (default `<cwd>/.data/artifacts`). */
  ARTIFACT_STORE_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** Largest artifact accepted, in bytes (25 MiB). */
  ARTIFACT_MAX_BYTES: Type.Integer({ minimum: 1, maximum: 60 * 1024 * 1024, default: 26_214_400 }),
  /** How long an identity answer is reused; 0 = ask every time. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  REGISTRY_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** S3 credentials (only for an s3:// store). */
  AWS_ACCESS_KEY_ID: Type.Optional(Type.String()),
  AWS_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
});

export type RegistryConfig = Static<typeof RegistryConfigSchema>;
