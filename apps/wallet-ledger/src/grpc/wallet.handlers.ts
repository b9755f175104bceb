import { unary, type CallContext, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { Caller } from '../events/wallet.events';
import type { BalancesService } from '../service/balances.service';
import type { DepositsService } from '../service/deposits.service';
import type { HoldsService } from '../service/holds.service';
import type { OperationsService } from '../service/operations.service';
import type { PayoutsService } from '../service/payouts.service';
import type { SettlementService } from '../service/settlement.service';

export interface WalletServices {
  balances: BalancesService;
  holds: HoldsService;
  deposits: DepositsService;
  payouts: PayoutsService;
  settlement: SettlementService;
  operations: OperationsService;
}

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, traceId: ctx.traceId });

/** proto in, proto out: every rule lives in the services; errors and logging in platform's `unary`. */
export function walletHandlers(s: WalletServices, logger: Logger): walletV1.WalletLedgerServiceServer {
  return {
    getBalance: unary(logger, 'GetBalance', (req: walletV1.GetBalanceRequest) => s.balances.getBalance(req)),
    faucet: unary(logger, 'Faucet', (req: walletV1.FaucetRequest, ctx) => s.balances.faucet(req, caller(ctx))),
    transfer: unary(logger, 'Transfer', (req: walletV1.TransferRequest, ctx) => s.balances.transfer(req, caller(ctx))),

    createHold: unary(logger, 'CreateHold', (req: walletV1.CreateHoldRequest, ctx) => s.holds.createHold(req, caller(ctx))),
    getHold: unary(logger, 'GetHold', (req: walletV1.GetHoldRequest) => s.holds.getHold(req)),
    releaseHold: unary(logger, 'ReleaseHold', (req: walletV1.ReleaseHoldRequest, ctx) => s.holds.releaseHold(req, caller(ctx))),
    consumeHold: unary(logger, 'ConsumeHold', (req: walletV1.ConsumeHoldRequest, ctx) => s.holds.consumeHold(req, caller(ctx))),

    createDeposit: unary(logger, 'CreateDeposit', (req: walletV1.CreateDepositRequest, ctx) => s.deposits.createDeposit(req, caller(ctx))),
    listDeposits: unary(logger, 'ListDeposits', (req: walletV1.ListDepositsRequest) => s.deposits.listDeposits(req)),
    confirmDeposit: unary(logger, 'ConfirmDeposit', (req: walletV1.ConfirmDepositRequest, ctx) => s.deposits.confirmDeposit(req, caller(ctx))),
    expireDeposit: unary(logger, 'ExpireDeposit', (req: walletV1.ExpireDepositRequest, ctx) => s.deposits.expireDeposit(req, caller(ctx))),

    createPayoutDestination: unary(logger, 'CreatePayoutDestination', (req: walletV1.CreatePayoutDestinationRequest, ctx) =>
      s.payouts.createPayoutDestination(req, caller(ctx)),
    ),
    listPayoutDestinations: unary(logger, 'ListPayoutDestinations', (req: walletV1.ListPayoutDestinationsRequest) =>
      s.payouts.listPayoutDestinations(req),
    ),
    createWithdrawal: unary(logger, 'CreateWithdrawal', (req: walletV1.CreateWithdrawalRequest, ctx) => s.payouts.createWithdrawal(req, caller(ctx))),
    getWithdrawal: unary(logger, 'GetWithdrawal', (req: walletV1.GetWithdrawalRequest) => s.payouts.getWithdrawal(req)),
    cancelWithdrawal: unary(logger, 'CancelWithdrawal', (req: walletV1.CancelWithdrawalRequest, ctx) => s.payouts.cancelWithdrawal(req, caller(ctx))),

    settle: unary(logger, 'Settle', (req: walletV1.SettleRequest, ctx) => s.settlement.settle(req, caller(ctx))),
    refund: unary(logger, 'Refund', (req: walletV1.RefundRequest, ctx) => s.settlement.refund(req, caller(ctx))),
    getReceipt: unary(logger, 'GetReceipt', (req: walletV1.GetReceiptRequest) => s.settlement.getReceipt(req)),
    correctSettlement: unary(logger, 'CorrectSettlement', (req: walletV1.CorrectSettlementRequest, ctx) =>
      s.settlement.correctSettlement(req, caller(ctx)),
    ),

    checkLedger: unary(logger, 'CheckLedger', () => s.operations.checkLedger()),
    getControls: unary(logger, 'GetControls', () => s.operations.getControls()),
    setControls: unary(logger, 'SetControls', (req: walletV1.SetControlsRequest, ctx) => s.operations.setControls(req, caller(ctx))),
  };
}
