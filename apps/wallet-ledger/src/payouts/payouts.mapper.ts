import { parseAmount } from '@exchange/platform';
import { walletV1, walletV1Wire } from '@exchange/proto';
import type { PayoutDestinationResult, WithdrawalResult } from '../domain/wallet.commands';
import type { PayoutDestination, Withdrawal } from '../domain/wallet.model';
import { toProtoPayoutDestination, toProtoWithdrawal } from '../events/wallet.messages';
import { codec, known, must, nul, replay, type Replay } from '../grpc/codec';
import type { PayoutsDeps } from './payouts.service';

/** UNSPECIFIED (or unknown) → undefined; the service decides whether that is allowed. */
export const fromProtoDestinationType = (t: walletV1.PayoutDestinationType) => walletV1Wire.payoutDestinationType.toWire(t);

export function fromProtoPayoutDestination(p: walletV1.PayoutDestination | undefined): PayoutDestination {
  const m = must(p, 'payout destination');
  return { ...m, type: known(walletV1Wire.payoutDestinationType, m.type, 'destination type'), createdAt: must(m.createdAt, 'created_at') };
}

export function fromProtoWithdrawal(w: walletV1.Withdrawal | undefined): Withdrawal {
  const m = must(w, 'withdrawal');
  return {
    ...m,
    amount: parseAmount(m.amount),
    status: known(walletV1Wire.withdrawalStatus, m.status, 'withdrawal status'),
    failureReason: nul(m.failureReason),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
  };
}

export const toProtoPayoutDestinationResponse = (r: PayoutDestinationResult): walletV1.CreatePayoutDestinationResponse => ({
  payoutDestination: toProtoPayoutDestination(r.payoutDestination),
  ...replay(r),
});
export const toProtoWithdrawalResponse = (r: WithdrawalResult) => ({ withdrawal: toProtoWithdrawal(r.withdrawal), ...replay(r) });

const withdrawalResult = (m: { withdrawal?: walletV1.Withdrawal } & Replay): WithdrawalResult => ({
  withdrawal: fromProtoWithdrawal(m.withdrawal),
  ...replay(m),
});

/** The stored form of the area's mutation results (see grpc/codec.ts). */
export const payoutsCodecs: PayoutsDeps['codecs'] = {
  createPayoutDestination: codec(walletV1.CreatePayoutDestinationResponse, toProtoPayoutDestinationResponse, (m) => ({
    payoutDestination: fromProtoPayoutDestination(m.payoutDestination),
    ...replay(m),
  })),
  createWithdrawal: codec(walletV1.CreateWithdrawalResponse, toProtoWithdrawalResponse, withdrawalResult),
  cancelWithdrawal: codec(walletV1.CancelWithdrawalResponse, toProtoWithdrawalResponse, withdrawalResult),
};
