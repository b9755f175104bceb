import { unary, type CallContext, type Logger } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import type { Caller } from '../events/wallet.events';
import { toProtoControls, toProtoDeposit, toProtoHold, toProtoPayoutDestination, toProtoReceipt, toProtoWithdrawal } from '../events/wallet.messages';
import type { BalancesService } from '../service/balances.service';
import type { DepositsService } from '../service/deposits.service';
import type { HoldsService } from '../service/holds.service';
import type { OperationsService } from '../service/operations.service';
import type { PayoutsService } from '../service/payouts.service';
import type { SettlementService } from '../service/settlement.service';
import {
  toProtoCorrectionResponse,
  toProtoDepositResponse,
  toProtoFaucetResponse,
  toProtoHoldResponse,
  toProtoPayoutDestinationResponse,
  toProtoSettlementResponse,
  toProtoTransferResponse,
  toProtoWithdrawalResponse,
} from './wallet.codecs';
import {
  fromProtoDepositMethod,
  fromProtoDepositStatusFilter,
  fromProtoDestinationType,
  keyed,
  pageInfo,
  pageQuery,
  toProtoBalances,
  toProtoLedgerReport,
} from './wallet.mapper';

export interface WalletServices {
  balances: BalancesService;
  holds: HoldsService;
  deposits: DepositsService;
  payouts: PayoutsService;
  settlement: SettlementService;
  operations: OperationsService;
}

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, traceId: ctx.traceId });
const W = walletV1;

/** Map the request, call the service, map the result: every rule lives in the services; errors and logging in platform's `unary`. */
export function walletHandlers(s: WalletServices, logger: Logger): walletV1.WalletLedgerServiceServer {
  return {
    getBalance: unary(logger, 'GetBalance', async (req: walletV1.GetBalanceRequest) => toProtoBalances(await s.balances.getBalance(req.agentId))),
    faucet: unary(logger, 'Faucet', async (req: walletV1.FaucetRequest, ctx) =>
      toProtoFaucetResponse(await s.balances.faucet(keyed(W.FaucetRequest, req), caller(ctx))),
    ),
    transfer: unary(logger, 'Transfer', async (req: walletV1.TransferRequest, ctx) =>
      toProtoTransferResponse(await s.balances.transfer(keyed(W.TransferRequest, req), caller(ctx))),
    ),

    createHold: unary(logger, 'CreateHold', async (req: walletV1.CreateHoldRequest, ctx) =>
      toProtoHoldResponse(await s.holds.createHold(keyed(W.CreateHoldRequest, req), caller(ctx))),
    ),
    getHold: unary(logger, 'GetHold', async (req: walletV1.GetHoldRequest) => ({ hold: toProtoHold(await s.holds.getHold(req)) })),
    releaseHold: unary(logger, 'ReleaseHold', async (req: walletV1.ReleaseHoldRequest, ctx) =>
      toProtoHoldResponse(await s.holds.releaseHold(keyed(W.ReleaseHoldRequest, req), caller(ctx))),
    ),
    consumeHold: unary(logger, 'ConsumeHold', async (req: walletV1.ConsumeHoldRequest, ctx) =>
      toProtoHoldResponse(await s.holds.consumeHold(keyed(W.ConsumeHoldRequest, req), caller(ctx))),
    ),

    createDeposit: unary(logger, 'CreateDeposit', async (req: walletV1.CreateDepositRequest, ctx) =>
      toProtoDepositResponse(await s.deposits.createDeposit({ ...keyed(W.CreateDepositRequest, req), method: fromProtoDepositMethod(req.method) }, caller(ctx))),
    ),
    listDeposits: unary(logger, 'ListDeposits', async (req: walletV1.ListDepositsRequest) => {
      const page = await s.deposits.listDeposits({ agentId: req.agentId, page: pageQuery(req.page), status: fromProtoDepositStatusFilter(req.status) });
      return { deposits: page.items.map(toProtoDeposit), page: pageInfo(page.nextCursor) };
    }),
    confirmDeposit: unary(logger, 'ConfirmDeposit', async (req: walletV1.ConfirmDepositRequest, ctx) =>
      toProtoDepositResponse(await s.deposits.confirmDeposit(keyed(W.ConfirmDepositRequest, req), caller(ctx))),
    ),
    expireDeposit: unary(logger, 'ExpireDeposit', async (req: walletV1.ExpireDepositRequest, ctx) =>
      toProtoDepositResponse(await s.deposits.expireDeposit(keyed(W.ExpireDepositRequest, req), caller(ctx))),
    ),

    createPayoutDestination: unary(logger, 'CreatePayoutDestination', async (req: walletV1.CreatePayoutDestinationRequest, ctx) =>
      toProtoPayoutDestinationResponse(
        await s.payouts.createPayoutDestination({ ...keyed(W.CreatePayoutDestinationRequest, req), type: fromProtoDestinationType(req.type) }, caller(ctx)),
      ),
    ),
    listPayoutDestinations: unary(logger, 'ListPayoutDestinations', async (req: walletV1.ListPayoutDestinationsRequest) => {
      const page = await s.payouts.listPayoutDestinations({ agentId: req.agentId, page: pageQuery(req.page) });
      return { payoutDestinations: page.items.map(toProtoPayoutDestination), page: pageInfo(page.nextCursor) };
    }),
    createWithdrawal: unary(logger, 'CreateWithdrawal', async (req: walletV1.CreateWithdrawalRequest, ctx) =>
      toProtoWithdrawalResponse(await s.payouts.createWithdrawal(keyed(W.CreateWithdrawalRequest, req), caller(ctx))),
    ),
    getWithdrawal: unary(logger, 'GetWithdrawal', async (req: walletV1.GetWithdrawalRequest) => ({
      withdrawal: toProtoWithdrawal(await s.payouts.getWithdrawal(req)),
    })),
    cancelWithdrawal: unary(logger, 'CancelWithdrawal', async (req: walletV1.CancelWithdrawalRequest, ctx) =>
      toProtoWithdrawalResponse(await s.payouts.cancelWithdrawal(keyed(W.CancelWithdrawalRequest, req), caller(ctx))),
    ),

    settle: unary(logger, 'Settle', async (req: walletV1.SettleRequest, ctx) =>
      toProtoSettlementResponse(await s.settlement.settle(keyed(W.SettleRequest, req), caller(ctx))),
    ),
    refund: unary(logger, 'Refund', async (req: walletV1.RefundRequest, ctx) =>
      toProtoSettlementResponse(await s.settlement.refund(keyed(W.RefundRequest, req), caller(ctx))),
    ),
    getReceipt: unary(logger, 'GetReceipt', async (req: walletV1.GetReceiptRequest) => ({ receipt: toProtoReceipt(await s.settlement.getReceipt(req)) })),
    correctSettlement: unary(logger, 'CorrectSettlement', async (req: walletV1.CorrectSettlementRequest, ctx) =>
      toProtoCorrectionResponse(await s.settlement.correctSettlement(keyed(W.CorrectSettlementRequest, req), caller(ctx))),
    ),

    checkLedger: unary(logger, 'CheckLedger', async () => toProtoLedgerReport(await s.operations.checkLedger())),
    getControls: unary(logger, 'GetControls', async () => ({ controls: toProtoControls(await s.operations.getControls()) })),
    setControls: unary(logger, 'SetControls', async (req: walletV1.SetControlsRequest, ctx) => ({
      controls: toProtoControls(await s.operations.setControls(req, caller(ctx))),
    })),
  };
}
