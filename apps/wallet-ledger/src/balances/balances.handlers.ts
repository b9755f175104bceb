import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { caller, keyed } from '../grpc/request';
import { toProtoBalances, toProtoTransferResponse } from './balances.mapper';
import type { BalancesService } from './balances.service';

/** GetBalance and Transfer: map the request, call the service, map the result (errors and logging in platform's `unary`). */
export function balancesHandlers(s: BalancesService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, 'getBalance' | 'transfer'> {
  return {
    getBalance: unary(logger, 'GetBalance', async (req: walletV1.GetBalanceRequest) => toProtoBalances(await s.getBalance(req.agentId))),
    transfer: unary(logger, 'Transfer', async (req: walletV1.TransferRequest, ctx) =>
      toProtoTransferResponse(await s.transfer(keyed(walletV1.TransferRequest, req), caller(ctx))),
    ),
  };
}
