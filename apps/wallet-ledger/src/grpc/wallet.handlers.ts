import { status } from '@grpc/grpc-js';
import { DomainError, unary, type CallContext, type Logger } from '@exchange/platform';
import type { walletV1 } from '@exchange/proto';
import type { Caller } from '../events/wallet.events';
import type { BalancesService } from '../service/balances.service';
import type { HoldsService } from '../service/holds.service';

export interface WalletServices {
  balances: BalancesService;
  holds: HoldsService;
}

const caller = (ctx: CallContext): Caller => ({ actor: ctx.actor, traceId: ctx.traceId });

const notYet = (method: string) => async (): Promise<never> => {
  throw new DomainError(status.UNIMPLEMENTED, 'unimplemented', `${method} is not implemented yet`);
};

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

    createDeposit: unary(logger, 'CreateDeposit', notYet('CreateDeposit')),
    listDeposits: unary(logger, 'ListDeposits', notYet('ListDeposits')),
    confirmDeposit: unary(logger, 'ConfirmDeposit', notYet('ConfirmDeposit')),
    expireDeposit: unary(logger, 'ExpireDeposit', notYet('ExpireDeposit')),
    createPayoutDestination: unary(logger, 'CreatePayoutDestination', notYet('CreatePayoutDestination')),
    listPayoutDestinations: unary(logger, 'ListPayoutDestinations', notYet('ListPayoutDestinations')),
    createWithdrawal: unary(logger, 'CreateWithdrawal', notYet('CreateWithdrawal')),
    getWithdrawal: unary(logger, 'GetWithdrawal', notYet('GetWithdrawal')),
    cancelWithdrawal: unary(logger, 'CancelWithdrawal', notYet('CancelWithdrawal')),
    settle: unary(logger, 'Settle', notYet('Settle')),
    refund: unary(logger, 'Refund', notYet('Refund')),
    getReceipt: unary(logger, 'GetReceipt', notYet('GetReceipt')),
    checkLedger: unary(logger, 'CheckLedger', notYet('CheckLedger')),
    getControls: unary(logger, 'GetControls', notYet('GetControls')),
    setControls: unary(logger, 'SetControls', notYet('SetControls')),
  };
}
