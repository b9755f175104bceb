import { unary, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import { toProtoPayoutDestination, toProtoWithdrawal } from '../events/wallet.messages';
import { caller, keyed, pageInfo, pageQuery } from '../grpc/request';
import { fromProtoDestinationType, toProtoPayoutDestinationResponse, toProtoWithdrawalResponse } from './payouts.mapper';
import type { PayoutsService } from './payouts.service';

type Served = 'createPayoutDestination' | 'listPayoutDestinations' | 'createWithdrawal' | 'getWithdrawal' | 'cancelWithdrawal';
const W = walletV1;

/** Payout destinations and withdrawals: map the request, call the service, map the result. */
export function payoutsHandlers(s: PayoutsService, logger: Logger): Pick<walletV1.WalletLedgerServiceServer, Served> {
  return {
    createPayoutDestination: unary(logger, 'CreatePayoutDestination', async (req: walletV1.CreatePayoutDestinationRequest, ctx) =>
      toProtoPayoutDestinationResponse(
        await s.createPayoutDestination({ ...keyed(W.CreatePayoutDestinationRequest, req), type: fromProtoDestinationType(req.type) }, caller(ctx)),
      ),
    ),
    listPayoutDestinations: unary(logger, 'ListPayoutDestinations', async (req: walletV1.ListPayoutDestinationsRequest) => {
      const page = await s.listPayoutDestinations({ agentId: req.agentId, page: pageQuery(req.page) });
      return { payoutDestinations: page.items.map(toProtoPayoutDestination), page: pageInfo(page.nextCursor) };
    }),
    createWithdrawal: unary(logger, 'CreateWithdrawal', async (req: walletV1.CreateWithdrawalRequest, ctx) =>
      toProtoWithdrawalResponse(await s.createWithdrawal(keyed(W.CreateWithdrawalRequest, req), caller(ctx))),
    ),
    getWithdrawal: unary(logger, 'GetWithdrawal', async (req: walletV1.GetWithdrawalRequest) => ({
      withdrawal: toProtoWithdrawal(await s.getWithdrawal(req)),
    })),
    cancelWithdrawal: unary(logger, 'CancelWithdrawal', async (req: walletV1.CancelWithdrawalRequest, ctx) =>
      toProtoWithdrawalResponse(await s.cancelWithdrawal(keyed(W.CancelWithdrawalRequest, req), caller(ctx))),
    ),
  };
}
