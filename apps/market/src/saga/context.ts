import type { Logger } from '@exchange/platform';
import type { WalletClient } from '../clients/wallet.client';
import type pg from 'pg';
import type { FaultPoint } from '../config';
import type { AgentDirectory } from '@exchange/identity-client';
import type { BuyerAliases } from '../identity/buyer-aliases.client';

export type { WalletClient };

/** What the service, the saga and the workers share. */
export interface MarketContext {
  pool: pg.Pool;
  /** Idempotency claims: each stays open for its request, so they never take the work pool's connections. */
  claims: pg.Pool;
  agents: AgentDirectory;
  /** identity MintPartyAlias for private buyers; absent → buyer_alias stays null. */
  aliases?: BuyerAliases;
  wallet: WalletClient;
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
