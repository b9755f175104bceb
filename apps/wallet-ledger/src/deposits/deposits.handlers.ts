import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { toProtoDeposit } from '../events/wallet.messages';
import { caller, keyed, pageInfo, pageQuery } from '../grpc/request';
import { fromProtoDepositMethod, fromProtoDepositStatusFilter, toProtoDepositResponse, toProtoFaucetResponse } from './deposits.mapper';
import type { DepositsService } from './deposits.service';

type Served = 'faucet' | 'createDeposit' | 'listDeposits' | 'confirmDeposit' | 'expireDeposit';
const W = walletV1;

/** Faucet and deposits: map the request, call the service, map the result. */
export function depositsHandlers(s: DepositsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, Served> {
  return {
    faucet: unary(logger, 'Faucet', async (req: walletV1.FaucetRequest, ctx) => toProtoFaucetResponse(await s.faucet(keyed(W.FaucetRequest, req), caller(ctx)))),
    createDeposit: unary(logger, 'CreateDeposit', async (req: walletV1.CreateDepositRequest, ctx) =>
      toProtoDepositResponse(await s.createDeposit({ ...keyed(W.CreateDepositRequest, req), method: fromProtoDepositMethod(req.method) }, caller(ctx))),
    ),
    listDeposits: unary(logger, 'ListDeposits', async (req: walletV1.ListDepositsRequest) => {
      const page = await s.listDeposits({ agentId: req.agentId, page: pageQuery(req.page), status: fromProtoDepositStatusFilter(req.status) });
      return { deposits: page.items.map(toProtoDeposit), page: pageInfo(page.nextCursor) };
    }),
    confirmDeposit: unary(logger, 'ConfirmDeposit', async (req: walletV1.ConfirmDepositRequest, ctx) =>
      toProtoDepositResponse(await s.confirmDeposit(keyed(W.ConfirmDepositRequest, req), caller(ctx))),
    ),
    expireDeposit: unary(logger, 'ExpireDeposit', async (req: walletV1.ExpireDepositRequest, ctx) =>
      toProtoDepositResponse(await s.expireDeposit(keyed(W.ExpireDepositRequest, req), caller(ctx))),
    ),
  };
}
