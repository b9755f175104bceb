import type { PromiseClient } from '@exchange/platform';
import type { marketV1, registryV1, walletV1 } from '@exchange/proto';

// The outbound gRPC clients of workflows (built once by index.ts, closed at stop).

/** Market: shard contracts are posted, read (results) and cancelled there. */
export type MarketClient = PromiseClient<typeof marketV1.MarketServiceService>;
/** Wallet-ledger: the owner's available balance against the run's budget. */
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;
/** Registry: each shard contract's casefile docket (run export). */
export type RegistryClient = PromiseClient<typeof registryV1.RegistryServiceService>;
