import { parseAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import type { Receipt } from '../domain/receipt';
import type {
  CorrectionResult,
  DepositResult,
  FaucetResult,
  HoldResult,
  PayoutDestinationResult,
  SettlementResult,
  TransferResult,
  WithdrawalResult,
} from '../domain/wallet.commands';
import type { Deposit, FaucetGrant, Hold, PayoutDestination, Transfer, Withdrawal } from '../domain/wallet.model';
import {
  toProtoDeposit,
  toProtoFaucetGrant,
  toProtoHold,
  toProtoPayoutDestination,
  toProtoReceipt,
  toProtoTransfer,
  toProtoWithdrawal,
} from '../events/wallet.messages';
import type { ResponseCodec } from '../service/execute';
import type { ResponseCodecs } from '../service/wallet-context';
import { DEPOSIT_METHOD_FROM, DEPOSIT_STATUS_FROM, DESTINATION_TYPE_FROM, HOLD_STATUS_FROM, RECEIPT_KIND_FROM, WITHDRAWAL_STATUS_FROM } from './wallet.mapper';

// Mutation results ⇄ their proto responses, and the stored form of a response (its proto3 JSON,
// kept with the idempotency key): a replay reads it back and maps it again, so it answers the
// first response byte for byte.

// Entities back from proto: the inverse of events/wallet.messages.ts (absent optional fields → null).

const nul = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const nulAmount = (v: string | undefined): bigint | null => (v === undefined ? null : parseAmount(v));
function known<K>(table: Map<number, K>, value: number, what: string): K {
  const k = table.get(value);
  if (k === undefined) throw new Error(`stored response has an unknown ${what} ${value}`);
  return k;
}
const must = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`stored response lacks its ${what}`);
  return v;
};

export function fromProtoTransfer(t: walletV1.Transfer | undefined): Transfer {
  const m = must(t, 'transfer');
  return { ...m, amount: parseAmount(m.amount), memo: nul(m.memo), createdAt: must(m.createdAt, 'created_at') };
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

export function fromProtoHold(h: walletV1.Hold | undefined): Hold {
  const m = must(h, 'hold');
  return {
    ...m,
    amount: parseAmount(m.amount),
    status: known(HOLD_STATUS_FROM, m.status, 'hold status'),
    expiresAt: nul(m.expiresAt),
    reference: nul(m.reference),
    consumedAmount: nulAmount(m.consumedAmount),
    releasedAmount: nulAmount(m.releasedAmount),
    consumedToAgentId: nul(m.consumedToAgentId),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
    // Absent in responses stored before hold controllers existed: kept absent, so their replay is unchanged.
    controller: m.controller as string,
  };
}

export function fromProtoDeposit(d: walletV1.Deposit | undefined): Deposit {
  const m = must(d, 'deposit');
  return {
    ...m,
    amount: parseAmount(m.amount),
    method: known(DEPOSIT_METHOD_FROM, m.method, 'deposit method'),
    reference: nul(m.reference),
    status: known(DEPOSIT_STATUS_FROM, m.status, 'deposit status'),
    journalEntryId: nul(m.journalEntryId),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
  };
}

export function fromProtoPayoutDestination(p: walletV1.PayoutDestination | undefined): PayoutDestination {
  const m = must(p, 'payout destination');
  return { ...m, type: known(DESTINATION_TYPE_FROM, m.type, 'destination type'), createdAt: must(m.createdAt, 'created_at') };
}

export function fromProtoWithdrawal(w: walletV1.Withdrawal | undefined): Withdrawal {
  const m = must(w, 'withdrawal');
  return {
    ...m,
    amount: parseAmount(m.amount),
    status: known(WITHDRAWAL_STATUS_FROM, m.status, 'withdrawal status'),
    failureReason: nul(m.failureReason),
    createdAt: must(m.createdAt, 'created_at'),
    updatedAt: must(m.updatedAt, 'updated_at'),
  };
}

export function fromProtoReceipt(r: walletV1.Receipt | undefined): Receipt {
  const m = must(r, 'receipt');
  return {
    ...m,
    kind: known(RECEIPT_KIND_FROM, m.kind, 'receipt kind'),
    amount: parseAmount(m.amount),
    fee: parseAmount(m.fee),
    refundedAmount: parseAmount(m.refundedAmount),
    settledAt: must(m.settledAt, 'settled_at'),
    correctsReceiptId: nul(m.correctsReceiptId),
    reason: nul(m.reason),
  };
}

type Replay = { idempotentReplayed: boolean };
const replay = (r: Replay) => ({ idempotentReplayed: r.idempotentReplayed });

export const toProtoFaucetResponse = (r: FaucetResult): walletV1.FaucetResponse => ({ grant: toProtoFaucetGrant(r.grant), ...replay(r) });
export const toProtoTransferResponse = (r: TransferResult): walletV1.TransferResponse => ({ transfer: toProtoTransfer(r.transfer), ...replay(r) });
export const toProtoHoldResponse = (r: HoldResult) => ({ hold: toProtoHold(r.hold), ...replay(r) });
export const toProtoDepositResponse = (r: DepositResult) => ({ deposit: toProtoDeposit(r.deposit), ...replay(r) });
export const toProtoPayoutDestinationResponse = (r: PayoutDestinationResult): walletV1.CreatePayoutDestinationResponse => ({
  payoutDestination: toProtoPayoutDestination(r.payoutDestination),
  ...replay(r),
});
export const toProtoWithdrawalResponse = (r: WithdrawalResult) => ({ withdrawal: toProtoWithdrawal(r.withdrawal), ...replay(r) });
export const toProtoSettlementResponse = (r: SettlementResult) => ({ receipt: toProtoReceipt(r.receipt), hold: toProtoHold(r.hold), ...replay(r) });
export const toProtoCorrectionResponse = (r: CorrectionResult): walletV1.CorrectSettlementResponse => ({ receipt: toProtoReceipt(r.receipt), ...replay(r) });

/** A proto response message as ts-proto generates it. */
interface Message<M> {
  toJSON(message: M): unknown;
  fromJSON(json: unknown): M;
}

function codec<R, M>(message: Message<M>, toProto: (r: R) => M, fromProto: (m: M) => R): ResponseCodec<R> {
  return { toJSON: (r) => message.toJSON(toProto(r)), fromJSON: (json) => fromProto(message.fromJSON(json)) };
}

const holdResult = (m: { hold?: walletV1.Hold } & Replay): HoldResult => ({ hold: fromProtoHold(m.hold), ...replay(m) });
const depositResult = (m: { deposit?: walletV1.Deposit } & Replay): DepositResult => ({ deposit: fromProtoDeposit(m.deposit), ...replay(m) });
const withdrawalResult = (m: { withdrawal?: walletV1.Withdrawal } & Replay): WithdrawalResult => ({
  withdrawal: fromProtoWithdrawal(m.withdrawal),
  ...replay(m),
});
const settlementResult = (m: { receipt?: walletV1.Receipt; hold?: walletV1.Hold } & Replay): SettlementResult => ({
  receipt: fromProtoReceipt(m.receipt),
  hold: fromProtoHold(m.hold),
  ...replay(m),
});

/** The stored form of every mutation's result (the ResponseCodecs port of the services). */
export const walletResponseCodecs: ResponseCodecs = {
  faucet: codec(walletV1.FaucetResponse, toProtoFaucetResponse, (m) => ({ grant: fromProtoFaucetGrant(m.grant), ...replay(m) })),
  transfer: codec(walletV1.TransferResponse, toProtoTransferResponse, (m) => ({ transfer: fromProtoTransfer(m.transfer), ...replay(m) })),
  createHold: codec(walletV1.CreateHoldResponse, toProtoHoldResponse, holdResult),
  releaseHold: codec(walletV1.ReleaseHoldResponse, toProtoHoldResponse, holdResult),
  consumeHold: codec(walletV1.ConsumeHoldResponse, toProtoHoldResponse, holdResult),
  createDeposit: codec(walletV1.CreateDepositResponse, toProtoDepositResponse, depositResult),
  confirmDeposit: codec(walletV1.ConfirmDepositResponse, toProtoDepositResponse, depositResult),
  expireDeposit: codec(walletV1.ExpireDepositResponse, toProtoDepositResponse, depositResult),
  createPayoutDestination: codec(walletV1.CreatePayoutDestinationResponse, toProtoPayoutDestinationResponse, (m) => ({
    payoutDestination: fromProtoPayoutDestination(m.payoutDestination),
    ...replay(m),
  })),
  createWithdrawal: codec(walletV1.CreateWithdrawalResponse, toProtoWithdrawalResponse, withdrawalResult),
  cancelWithdrawal: codec(walletV1.CancelWithdrawalResponse, toProtoWithdrawalResponse, withdrawalResult),
  settle: codec(walletV1.SettleResponse, toProtoSettlementResponse, settlementResult),
  refund: codec(walletV1.RefundResponse, toProtoSettlementResponse, settlementResult),
  correctSettlement: codec(walletV1.CorrectSettlementResponse, toProtoCorrectionResponse, (m) => ({
    receipt: fromProtoReceipt(m.receipt),
    ...replay(m),
  })),
};
