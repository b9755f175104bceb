import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';
import type { GroupCommitOptions } from './data/group-commit';
import { KILL_SWITCHES, type KillSwitch } from './domain/controls';

/** Environment of the wallet-ledger service, read once by `readConfig` (no process.env elsewhere). */
export const WalletLedgerConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** host:port of the identity service (owners and recipients are looked up there). */
  IDENTITY_GRPC_URL: grpcAddress(),
  /** host:port of the registry (meter events, epoch tables and period receipts are stored there); absent → those RPCs answer registry_unavailable. */
  REGISTRY_GRPC_URL: Type.Optional(grpcAddress()),
  /** host:port of commerce (mandate budgets of proxy calls); absent → a mandate budget answers commerce_unavailable. */
  COMMERCE_GRPC_URL: Type.Optional(grpcAddress()),
  /** Base64 of the 32-byte ed25519 seed of the exchange key; signs receipts. */
  EXCHANGE_SIGNING_KEY: Type.String({ pattern: '^[A-Za-z0-9+/]{43}=$' }),
  /** Kill switches switched on at start (comma list of withdrawals, faucet, settlements). */
  WALLET_KILL_SWITCHES: Type.String({
    pattern: '^\\s*((withdrawals|faucet|settlements)\\s*(,\\s*(withdrawals|faucet|settlements)\\s*)*)?$',
    default: '',
  }),
  /** true switches read-only mode on at start. */
  WALLET_READ_ONLY: Type.Boolean({ default: false }),
  /** Hold-expiry sweeper period; 0 disables the timer (tests run rounds by hand). */
  HOLD_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** Sandbox payout processor period; 0 disables the timer. */
  PAYOUT_PROCESSOR_INTERVAL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** How long an identity answer (level, frozen, keys) is reused; 0 = ask every time. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** Daily withdrawal limit per currency of MAINNET_INSTITUTIONAL agents (decimal units). */
  INSTITUTIONAL_DAILY_WITHDRAWAL_LIMIT: Type.String({ pattern: '^(0|[1-9]\\d{0,12})(\\.\\d{1,6})?$', default: '1000000' }),
  WALLET_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 8 }),
  /** Group commit of balance mutations (README.md "Group commit"); false = one transaction per mutation. */
  WALLET_GROUP_COMMIT: Type.Boolean({ default: true }),
  /** Most mutations per group-commit transaction. */
  WALLET_GROUP_COMMIT_MAX_BATCH: Type.Integer({ minimum: 1, maximum: 64, default: 32 }),
  /** How long a batch waits for neighbours, microseconds; 0 = those that arrived in the same I/O round. */
  WALLET_GROUP_COMMIT_WINDOW_US: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
  /** Group-commit transactions in flight at once (each holds a pool connection). */
  WALLET_GROUP_COMMIT_IN_FLIGHT: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
});

export type WalletLedgerConfig = Static<typeof WalletLedgerConfigSchema>;


/** WALLET_KILL_SWITCHES as a list (deduplicated, in KILL_SWITCHES order). */
export function killSwitchesFrom(config: Pick<WalletLedgerConfig, 'WALLET_KILL_SWITCHES'>): KillSwitch[] {
  const named = new Set(config.WALLET_KILL_SWITCHES.split(',').map((s) => s.trim()));
  return KILL_SWITCHES.filter((s) => named.has(s));
}

/** The group-commit settings, or undefined when WALLET_GROUP_COMMIT is off. */
export function groupCommitFrom(config: WalletLedgerConfig): GroupCommitOptions | undefined {
  if (!config.WALLET_GROUP_COMMIT) return undefined;
  return {
    maxBatch: config.WALLET_GROUP_COMMIT_MAX_BATCH,
    windowUs: config.WALLET_GROUP_COMMIT_WINDOW_US,
    maxInFlight: config.WALLET_GROUP_COMMIT_IN_FLIGHT,
  };
}
