import { formatAmount } from '@exchange/platform';
import { walletV1Wire, type walletV1 } from '@exchange/proto';
import type { Controls } from '../domain/controls';
import type { Receipt } from '../domain/receipt';
import type { Balance, Deposit, FaucetGrant, Hold, PayoutDestination, Transfer, Withdrawal } from '../domain/wallet.model';

// Wallet entities as proto messages: what events carry and responses return (the areas' mappers
// use them too). Amounts leave as decimal strings, optional fields as undefined.

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);
const optAmount = (v: bigint | null) => (v === null ? undefined : formatAmount(v));

// Enum values: the domain's names are the wire names, so the generated tables (@exchange/proto
// walletV1Wire) map them; toProto throws on a name outside the table.

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
    status: walletV1Wire.holdStatus.toProto(h.status),
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
    method: walletV1Wire.depositMethod.toProto(d.method),
    reference: opt(d.reference),
    status: walletV1Wire.depositStatus.toProto(d.status),
    journalEntryId: opt(d.journalEntryId),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

export function toProtoPayoutDestination(p: PayoutDestination): walletV1.PayoutDestination {
  return {
    payoutDestinationId: p.payoutDestinationId,
    agentId: p.agentId,
    type: walletV1Wire.payoutDestinationType.toProto(p.type),
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
    status: walletV1Wire.withdrawalStatus.toProto(w.status),
    failureReason: opt(w.failureReason),
    journalEntryIds: [...w.journalEntryIds],
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

export function toProtoReceipt(r: Receipt): walletV1.Receipt {
  return {
    receiptId: r.receiptId,
    kind: walletV1Wire.receiptKind.toProto(r.kind),
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
    refundsReceiptId: opt(r.refundsReceiptId ?? null),
  };
}

export function toProtoControls(c: Controls): walletV1.Controls {
  return { readOnly: c.readOnly, killSwitches: [...c.killSwitches] };
}
