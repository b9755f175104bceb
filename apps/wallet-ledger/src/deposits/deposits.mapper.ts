import { parseAmount } from '@exchange/platform';
import { walletV1, walletV1Wire } from '@exchange/proto';
import type { DepositResult, FaucetResult, ListDepositsQuery } from '../domain/wallet.commands';
import type { Deposit, FaucetGrant } from '../domain/wallet.model';
import { toProtoDeposit, toProtoFaucetGrant } from '../events/wallet.messages';
import { codec, known, must, nul, replay, type Replay } from '../grpc/codec';
import type { DepositsDeps } from './deposits.service';

/** UNSPECIFIED (or unknown) → undefined; the service decides whether that is allowed. */
export const fromProtoDepositMethod = (m: walletV1.DepositMethod) => walletV1Wire.depositMethod.toWire(m);

/** UNSPECIFIED → any status; a value the service does not know → null (validation_failed). */
export function fromProtoDepositStatusFilter(s: walletV1.DepositStatus): ListDepositsQuery['status'] {
  if (s === walletV1.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED) return undefined;
  return walletV1Wire.depositStatus.toWire(s) ?? null;
}

export function fromProtoFaucetGrant(g: walletV1.FaucetGrant | undefined): FaucetGrant {
  const m = must(g, 'grant');
  return {
    ...m,
    amount: parseAmount(m.amount),
    grantedToday: parseAmount(m.grantedToday),
    remainingToday: parseAmount(m.remainingToday),
    resetsAt: must(m.resetsAt, 'resets_at'),
    createdAt: must(m.createdAt, 'created_at'),
  };
}

export function fromProtoDeposit(d: walletV1.Deposit | undefined): Deposit {
  const m = must(d, 'deposit');
  return {
    ...m,
    amount: parseAmount(m.amount),
    method: known(walletV1Wire.depositMethod, m.method, 'deposit method'),
    reference: nul(m.reference),
    status: known(walletV1Wire.depositStatus, m.status, 'deposit status'),
    journalEntryId: nul(m.journalEntryId),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
  };
}

export const toProtoFaucetResponse = (r: FaucetResult): walletV1.FaucetResponse => ({ grant: toProtoFaucetGrant(r.grant), ...replay(r) });
export const toProtoDepositResponse = (r: DepositResult) => ({ deposit: toProtoDeposit(r.deposit), ...replay(r) });

const depositResult = (m: { deposit?: walletV1.Deposit } & Replay): DepositResult => ({ deposit: fromProtoDeposit(m.deposit), ...replay(m) });

/** The stored form of the area's mutation results (see grpc/codec.ts). */
export const depositsCodecs: DepositsDeps['codecs'] = {
  faucet: codec(walletV1.FaucetResponse, toProtoFaucetResponse, (m) => ({ grant: fromProtoFaucetGrant(m.grant), ...replay(m) })),
  createDeposit: codec(walletV1.CreateDepositResponse, toProtoDepositResponse, depositResult),
  confirmDeposit: codec(walletV1.ConfirmDepositResponse, toProtoDepositResponse, depositResult),
  expireDeposit: codec(walletV1.ExpireDepositResponse, toProtoDepositResponse, depositResult),
};
