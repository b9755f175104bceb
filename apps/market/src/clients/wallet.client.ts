import type { PromiseClient } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';

/** The outbound wallet-ledger client the saga and the integrity sync call. */
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;
