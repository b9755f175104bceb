import { unary, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import { toProtoLedgerReport } from './ledger.mapper';
import type { LedgerService } from './ledger.service';

/** CheckLedger (the reconciliation; `npm run ledger:check`). */
export function ledgerHandlers(s: LedgerService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'checkLedger'> {
  return {
    checkLedger: unary(logger, 'CheckLedger', async () => toProtoLedgerReport(await s.checkLedger())),
  };
}
