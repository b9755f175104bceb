import type { PromiseClient } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';

/** The outbound wallet-ledger client of the purchase saga (holds, settlement to merchants, refunds). */
export type WalletClient = PromiseClient<typeof walletV1.WalletLedgerServiceService>;
