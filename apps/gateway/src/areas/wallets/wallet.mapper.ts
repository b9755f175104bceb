import { walletV1, walletV1Wire as W } from '@exchange/proto';
import type { ReceiptJson } from '../receipts/receipts.schemas';
import type { BalanceSnapshotJson, FaucetGrantJson, HoldJson, TransferJson } from './funds.schemas';
import type { CreatePayoutDestinationBodyJson, DepositJson, PayoutDestinationJson, WithdrawalJson } from './payments.schemas';
import type { DepositMethodName, DepositStatusName, PayoutDestinationTypeName } from './wallets.schemas';
import { contractChecks, isoOrNull, orNull, ServiceContractError } from '../../lib/mapper-kit';

// Proto ⇄ REST for the Wallets area and receipts: enums `HOLD_STATUS_ACTIVE` ⇄ `active` (tables
// generated from wallet.proto), Dates ⇄ RFC 3339 strings, absent optionals ⇄ null. Pure
// functions, no I/O.

const { DepositStatus } = walletV1;

/** The service answered without a field the contract guarantees (a bug there → 500 here). */
export class WalletContractError extends ServiceContractError {
  constructor(what: string) {
    super('wallet-ledger', what);
    this.name = 'WalletContractError';
  }
}

const { required, enumToJson, iso } = contractChecks((what) => new WalletContractError(what));

export const depositMethodFromJson = (method: DepositMethodName): walletV1.DepositMethod => W.depositMethod.toProto(method);
export const payoutDestinationTypeFromJson = (type: PayoutDestinationTypeName): walletV1.PayoutDestinationType => W.payoutDestinationType.toProto(type);
/** An absent filter is UNSPECIFIED (any status). */
export const depositStatusFromJson = (status: DepositStatusName | undefined): walletV1.DepositStatus =>
  status === undefined ? DepositStatus.DEPOSIT_STATUS_UNSPECIFIED : W.depositStatus.toProto(status);

/** The body's destination fields in proto form (the key travels separately). */
export function payoutDestinationFromJson(
  body: CreatePayoutDestinationBodyJson,
): Pick<walletV1.CreatePayoutDestinationRequest, 'type' | 'details' | 'label'> {
  return { type: payoutDestinationTypeFromJson(body.type), details: { ...body.details }, label: body.label };
}


export function balanceToJson(res: walletV1.GetBalanceResponse): BalanceSnapshotJson {
  return {
    agent_id: res.agentId,
    balances: res.balances.map((b) => ({ currency: b.currency, available: b.available, held: b.held, total: b.total })),
    as_of: iso(res.asOf, 'as_of'),
  };
}

export function faucetGrantToJson(grant: walletV1.FaucetGrant | undefined): FaucetGrantJson {
  const g = required(grant, 'faucet grant');
  return {
    faucet_grant_id: g.faucetGrantId,
    agent_id: g.agentId,
    amount: g.amount,
    currency: g.currency,
    category: g.category,
    journal_entry_id: g.journalEntryId,
    granted_today: g.grantedToday,
    remaining_today: g.remainingToday,
    resets_at: iso(g.resetsAt, 'resets_at'),
    created_at: iso(g.createdAt, 'created_at'),
  };
}

export function transferToJson(transfer: walletV1.Transfer | undefined): TransferJson {
  const t = required(transfer, 'transfer');
  return {
    transfer_id: t.transferId,
    from_agent_id: t.fromAgentId,
    to_agent_id: t.toAgentId,
    amount: t.amount,
    currency: t.currency,
    memo: orNull(t.memo),
    journal_entry_id: t.journalEntryId,
    created_at: iso(t.createdAt, 'created_at'),
  };
}

export function holdToJson(hold: walletV1.Hold | undefined): HoldJson {
  const h = required(hold, 'hold');
  return {
    hold_id: h.holdId,
    agent_id: h.agentId,
    amount: h.amount,
    currency: h.currency,
    status: enumToJson(W.holdStatus, h.status, 'hold status'),
    expires_at: isoOrNull(h.expiresAt),
    reference: orNull(h.reference),
    consumed_amount: orNull(h.consumedAmount),
    released_amount: orNull(h.releasedAmount),
    consumed_to_agent_id: orNull(h.consumedToAgentId),
    journal_entry_ids: [...h.journalEntryIds],
    created_at: iso(h.createdAt, 'created_at'),
    updated_at: iso(h.updatedAt, 'updated_at'),
  };
}

export function depositToJson(deposit: walletV1.Deposit | undefined): DepositJson {
  const d = required(deposit, 'deposit');
  return {
    deposit_id: d.depositId,
    agent_id: d.agentId,
    amount: d.amount,
    currency: d.currency,
    method: enumToJson(W.depositMethod, d.method, 'deposit method'),
    reference: orNull(d.reference),
    status: enumToJson(W.depositStatus, d.status, 'deposit status'),
    journal_entry_id: orNull(d.journalEntryId),
    created_at: iso(d.createdAt, 'created_at'),
    updated_at: iso(d.updatedAt, 'updated_at'),
  };
}

export function payoutDestinationToJson(destination: walletV1.PayoutDestination | undefined): PayoutDestinationJson {
  const p = required(destination, 'payout destination');
  return {
    payout_destination_id: p.payoutDestinationId,
    agent_id: p.agentId,
    type: enumToJson(W.payoutDestinationType, p.type, 'payout destination type'),
    details: { ...p.details },
    label: p.label,
    created_at: iso(p.createdAt, 'created_at'),
  };
}

export function withdrawalToJson(withdrawal: walletV1.Withdrawal | undefined): WithdrawalJson {
  const w = required(withdrawal, 'withdrawal');
  return {
    withdrawal_id: w.withdrawalId,
    agent_id: w.agentId,
    amount: w.amount,
    currency: w.currency,
    payout_destination_id: w.payoutDestinationId,
    status: enumToJson(W.withdrawalStatus, w.status, 'withdrawal status'),
    failure_reason: orNull(w.failureReason),
    journal_entry_ids: [...w.journalEntryIds],
    created_at: iso(w.createdAt, 'created_at'),
    updated_at: iso(w.updatedAt, 'updated_at'),
  };
}

/**
 * The receipt's JSON form, which is also what the exchange signed: `signature` is over the
 * canonical JSON of this object without `signature`, so no field may be added, renamed or
 * reformatted here (settled_at is `Date.toISOString()`, as the signer wrote it).
 */
export function receiptToJson(receipt: walletV1.Receipt | undefined): ReceiptJson {
  const r = required(receipt, 'receipt');
  return {
    receipt_id: r.receiptId,
    kind: enumToJson(W.receiptKind, r.kind, 'receipt kind'),
    contract_id: r.contractId,
    hold_id: r.holdId,
    payer: r.payer,
    payee: r.payee,
    amount: r.amount,
    fee: r.fee,
    refunded_amount: r.refundedAmount,
    currency: r.currency,
    journal_entry_ids: [...r.journalEntryIds],
    settled_at: iso(r.settledAt, 'settled_at'),
    signer_public_key: r.signerPublicKey,
    signature: r.signature,
    // Only on correction (corrects_receipt_id, reason) and purchase refund (refunds_receipt_id,
    // reason) receipts, so the JSON of the others stays exactly what was signed.
    ...(r.correctsReceiptId !== undefined ? { corrects_receipt_id: r.correctsReceiptId } : {}),
    ...(r.refundsReceiptId !== undefined ? { refunds_receipt_id: r.refundsReceiptId } : {}),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
  };
}
