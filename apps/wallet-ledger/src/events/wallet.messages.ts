import { formatAmount } from '@exchange/platform';
import { walletV1 } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import type { Receipt } from '../domain/receipt';
import type { DepositStatus, HoldStatus, WithdrawalStatus } from '../domain/state-machine';
import type {
  Balance,
  Deposit,
  DepositMethod,
  FaucetGrant,
  Hold,
  PayoutDestination,
  PayoutDestinationType,
  Transfer,
  Withdrawal,
} from '../domain/wallet.model';

// Wallet entities as proto messages: what events carry and responses return (the areas' mappers
// use them too). Amounts leave as decimal strings, optional fields as undefined.

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const optAmount = (v: bigint | null) => (v === null ? undefined : formatAmount(v));

export const HOLD_STATUS: Record<HoldStatus, walletV1.HoldStatus> = {
  active: walletV1.HoldStatus.HOLD_STATUS_ACTIVE,
  released: walletV1.HoldStatus.HOLD_STATUS_RELEASED,
  consumed: walletV1.HoldStatus.HOLD_STATUS_CONSUMED,
  expired: walletV1.HoldStatus.HOLD_STATUS_EXPIRED,
};

export const DEPOSIT_STATUS: Record<DepositStatus, walletV1.DepositStatus> = {
  pending: walletV1.DepositStatus.DEPOSIT_STATUS_PENDING,
  confirmed: walletV1.DepositStatus.DEPOSIT_STATUS_CONFIRMED,
  expired: walletV1.DepositStatus.DEPOSIT_STATUS_EXPIRED,
};

export const DEPOSIT_METHOD: Record<DepositMethod, walletV1.DepositMethod> = {
  sandbox: walletV1.DepositMethod.DEPOSIT_METHOD_SANDBOX,
  bank: walletV1.DepositMethod.DEPOSIT_METHOD_BANK,
  crypto: walletV1.DepositMethod.DEPOSIT_METHOD_CRYPTO,
};

export const DESTINATION_TYPE: Record<PayoutDestinationType, walletV1.PayoutDestinationType> = {
  bank_account: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_BANK_ACCOUNT,
  crypto_address: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_CRYPTO_ADDRESS,
  sandbox: walletV1.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX,
};

export const WITHDRAWAL_STATUS: Record<WithdrawalStatus, walletV1.WithdrawalStatus> = {
  requested: walletV1.WithdrawalStatus.WITHDRAWAL_STATUS_REQUESTED,
  processing: walletV1.WithdrawalStatus.WITHDRAWAL_STATUS_PROCESSING,
  completed: walletV1.WithdrawalStatus.WITHDRAWAL_STATUS_COMPLETED,
  failed: walletV1.WithdrawalStatus.WITHDRAWAL_STATUS_FAILED,
  cancelled: walletV1.WithdrawalStatus.WITHDRAWAL_STATUS_CANCELLED,
};

export function toProtoBalance(b: Balance): walletV1.Balance {
  return {
    currency: b.currency,
    available: formatAmount(b.available),
    held: formatAmount(b.held),
    total: formatAmount(b.available + b.held),
  };
}

export function toProtoTransfer(t: Transfer): walletV1.Transfer {
  return {
    transferId: t.transferId,
    fromAgentId: t.fromAgentId,
    toAgentId: t.toAgentId,
    amount: formatAmount(t.amount),
    currency: t.currency,
    memo: opt(t.memo),
    journalEntryId: t.journalEntryId,
    createdAt: t.createdAt,
  };
}

export function toProtoFaucetGrant(g: FaucetGrant): walletV1.FaucetGrant {
  return {
    faucetGrantId: g.faucetGrantId,
    agentId: g.agentId,
    amount: formatAmount(g.amount),
    currency: g.currency,
    category: g.category,
    journalEntryId: g.journalEntryId,
    grantedToday: formatAmount(g.grantedToday),
    remainingToday: formatAmount(g.remainingToday),
    resetsAt: g.resetsAt,
    createdAt: g.createdAt,
  };
}

export function toProtoHold(h: Hold): walletV1.Hold {
  return {
    holdId: h.holdId,
    agentId: h.agentId,
    amount: formatAmount(h.amount),
    currency: h.currency,
    status: HOLD_STATUS[h.status],
    expiresAt: opt(h.expiresAt),
    reference: opt(h.reference),
    consumedAmount: optAmount(h.consumedAmount),
    releasedAmount: optAmount(h.releasedAmount),
    consumedToAgentId: opt(h.consumedToAgentId),
    journalEntryIds: [...h.journalEntryIds],
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
    controller: h.controller,
  };
}

export function toProtoDeposit(d: Deposit): walletV1.Deposit {
  return {
    depositId: d.depositId,
    agentId: d.agentId,
    amount: formatAmount(d.amount),
    currency: d.currency,
    method: DEPOSIT_METHOD[d.method],
    reference: opt(d.reference),
    status: DEPOSIT_STATUS[d.status],
    journalEntryId: opt(d.journalEntryId),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

export function toProtoPayoutDestination(p: PayoutDestination): walletV1.PayoutDestination {
  return {
    payoutDestinationId: p.payoutDestinationId,
    agentId: p.agentId,
    type: DESTINATION_TYPE[p.type],
    details: { ...p.details },
    label: p.label,
    createdAt: p.createdAt,
  };
}

export function toProtoWithdrawal(w: Withdrawal): walletV1.Withdrawal {
  return {
    withdrawalId: w.withdrawalId,
    agentId: w.agentId,
    amount: formatAmount(w.amount),
    currency: w.currency,
    payoutDestinationId: w.payoutDestinationId,
    status: WITHDRAWAL_STATUS[w.status],
    failureReason: opt(w.failureReason),
    journalEntryIds: [...w.journalEntryIds],
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

export const RECEIPT_KIND: Record<Receipt['kind'], walletV1.ReceiptKind> = {
  settlement: walletV1.ReceiptKind.RECEIPT_KIND_SETTLEMENT,
  refund: walletV1.ReceiptKind.RECEIPT_KIND_REFUND,
  correction: walletV1.ReceiptKind.RECEIPT_KIND_CORRECTION,
};

export function toProtoReceipt(r: Receipt): walletV1.Receipt {
  return {
    receiptId: r.receiptId,
    kind: RECEIPT_KIND[r.kind],
    contractId: r.contractId,
    holdId: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: formatAmount(r.amount),
    fee: formatAmount(r.fee),
    refundedAmount: formatAmount(r.refundedAmount),
    currency: r.currency,
    journalEntryIds: [...r.journalEntryIds],
    settledAt: r.settledAt,
    signature: r.signature,
    signerPublicKey: r.signerPublicKey,
    correctsReceiptId: opt(r.correctsReceiptId ?? null),
    reason: opt(r.reason ?? null),
  };
}

export function toProtoControls(c: Controls): walletV1.Controls {
  return { readOnly: c.readOnly, killSwitches: [...c.killSwitches] };
}
