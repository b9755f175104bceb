import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

/** Crash points of the run engine (WORKFLOWS_FAULT_INJECTION, kill tests only). */
export const FAULT_POINTS = ['after_first_post', 'after_stage_commit'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

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
  /** Durable name of the market contract consumer; tests sharing a NATS server give each process its own. */
  WORKFLOWS_MARKET_DURABLE: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'workflows-market' }),
  /**
   * Tests only (honoured in sandbox): the process SIGKILLs itself at this point of the run engine —
   * after_first_post: the market answered a CreateContract, the contract id not stored yet;
   * after_stage_commit: a stage's tasks committed as posting, no contract posted yet.
   */
  WORKFLOWS_FAULT_INJECTION: Type.Optional(Type.String({ pattern: `^(${FAULT_POINTS.join('|')})$` })),
});

export type WorkflowsConfig = Static<typeof WorkflowsConfigSchema>;

/** The crash point switched on, if any; none outside sandbox (a production process never kills itself). */
export function faultPointOf(config: Pick<WorkflowsConfig, 'WORKFLOWS_FAULT_INJECTION' | 'EXCHANGE_ENV'>): FaultPoint | null {
  if (config.EXCHANGE_ENV !== 'sandbox') return null;
  return FAULT_POINTS.find((p) => p === config.WORKFLOWS_FAULT_INJECTION) ?? null;
}
