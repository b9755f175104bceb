import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Environment of the workflows service, read once by `readConfig` (no process.env elsewhere). */
export const WorkflowsConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** host:port of market: shard contracts are posted, read and cancelled there. */
  MARKET_GRPC_URL: grpcAddress(),
  /** host:port of wallet-ledger: the owner's balance is checked against the run's budget. */
  WALLET_LEDGER_GRPC_URL: grpcAddress(),
  /** host:port of registry: each shard contract's casefile docket for the run export. */
  REGISTRY_GRPC_URL: grpcAddress(),
  /** host:port of identity: the owner agent must exist and not be frozen. */
  IDENTITY_GRPC_URL: grpcAddress(),
  /** Base64 of the 32-byte ed25519 seed of the exchange key: signs the run's casefile docket. */
  EXCHANGE_SIGNING_KEY: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  /** Recovery worker period (posts shard contracts a crash left unposted, starts due stages); 0 disables the timer. */
  WORKFLOWS_RECOVERY_INTERVAL_MS: Type.Integer({ minimum: 0, default: 2000 }),
  /** How long an identity answer is reused; 0 = ask every time. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  WORKFLOWS_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
});

export type WorkflowsConfig = Static<typeof WorkflowsConfigSchema>;
