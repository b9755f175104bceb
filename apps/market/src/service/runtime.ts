import type { Logger } from '@exchange/platform';
import type { WalletClient } from '../clients/wallet.client';
import type pg from 'pg';
import type { FaultPoint } from '../config';
import type { AgentDirectory } from '@exchange/identity-client';
import type { BuyerAliases } from '../clients/buyer-aliases.client';
import type { MatchingSignals } from '../insights/matching';

/**
 * What start-up (index.ts) builds once. No area takes all of it: each service, worker and handler
 * factory declares the fields it uses as a `Pick<MarketRuntime, …>` (ContractsDeps, SagaDeps, …),
 * so its signature tells what the slice needs; index.ts passes this one object to all of them.
 */
export interface MarketRuntime {
  pool: pg.Pool;
  /** Idempotency claims: each stays open for its request, so they never take the work pool's connections. */
  claims: pg.Pool;
  agents: AgentDirectory;
  /** identity MintPartyAlias for private buyers; absent → buyer_alias stays null. */
  aliases?: BuyerAliases;
  wallet: WalletClient;
  /** Telemetry's matching boosts for recommendations; absent → none (noMatchingSignals). */
  matching?: MatchingSignals;
  clock: () => Date;
  logger: Logger;
  feeBps: number;
  /** EXCHANGE_ENV: in sandbox every new contract is marked sandbox (absent = mainnet rules). */
  exchangeEnv?: 'sandbox' | 'mainnet';
  /** MARKET_RESALE_MAX_DEPTH (absent = 3). */
  resaleMaxDepth?: number;
  awardGraceMs: number;
  disputeWindowDays: number;
  faults: ReadonlySet<FaultPoint>;
  /** Wakes the outbox relay after a commit that wrote events. */
  notify: () => void;
}

/** A transaction that nudges the outbox relay afterwards (service-kit's inTransaction). */
export type TxDeps = Pick<MarketRuntime, 'pool' | 'notify'>;
