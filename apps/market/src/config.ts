import { grpcAddress, serviceConfigBase } from '@exchange/service-host';
import { Type, type Static } from 'typebox';

const FAULT_POINT = '(award:after_hold|settle:after_consume|release:after_refund|resolve:after_wallet)';

/** Environment of the market service, read once by `readConfig` (no process.env elsewhere). */
export const MarketConfigSchema = Type.Object({
  ...serviceConfigBase(),
  /** host:port of identity (parties, freezes, report signatures). */
  IDENTITY_GRPC_URL: grpcAddress(),
  /** host:port of wallet-ledger (escrow holds, settlement, refunds). */
  WALLET_LEDGER_GRPC_URL: grpcAddress(),
  /** host:port of telemetry (matching boosts for recommendations); absent → no boosts. */
  TELEMETRY_GRPC_URL: Type.Optional(grpcAddress()),
  /** Market fee in basis points of the paid amount (floor). */
  MARKET_FEE_BPS: Type.Integer({ minimum: 0, maximum: 10000, default: 100 }),
  /** How long after the deadline an awarded contract without delivery stays awarded. */
  MARKET_AWARD_GRACE_MS: Type.Integer({ minimum: 0, default: 86_400_000 }),
  /** Deadline sweeper period; 0 disables the timer (tests drive `workers.sweep()`). */
  MARKET_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 0, default: 5000 }),
  /** Saga recovery period; 0 disables the timer (the start-up pass still runs). */
  MARKET_RECOVERY_INTERVAL_MS: Type.Integer({ minimum: 0, default: 2000 }),
  /** Days after settlement during which a dispute may still be opened. */
  MARKET_DISPUTE_WINDOW_DAYS: Type.Integer({ minimum: 0, maximum: 3650, default: 7 }),
  /** How long an identity answer is reused; 0 = ask every time. */
  AGENT_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** How many resales deep a contract may be (1 = a resale of an original contract). */
  MARKET_RESALE_MAX_DEPTH: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
  MARKET_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** Crash points for tests (comma list); honoured only in sandbox. */
  MARKET_FAULT_INJECTION: Type.String({ pattern: `^\\s*(${FAULT_POINT}\\s*(,\\s*${FAULT_POINT}\\s*)*)?$`, default: '' }),
});

export type MarketConfig = Static<typeof MarketConfigSchema>;

export type FaultPoint = 'award:after_hold' | 'settle:after_consume' | 'release:after_refund' | 'resolve:after_wallet';

/** The fault points switched on; none outside sandbox (a production process never kills itself). */
export function faultPointsFrom(config: Pick<MarketConfig, 'MARKET_FAULT_INJECTION' | 'EXCHANGE_ENV'>): Set<FaultPoint> {
  if (config.EXCHANGE_ENV !== 'sandbox') return new Set();
  return new Set(
    config.MARKET_FAULT_INJECTION.split(',')
      .map((s) => s.trim())
      .filter((s): s is FaultPoint => s !== ''),
  );
}
