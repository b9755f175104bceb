import type { Receipt } from './receipt';
import type { DepositStatus } from './state-machine';
import type { Balance, Deposit, DepositMethod, FaucetGrant, Hold, PayoutDestination, PayoutDestinationType, Transfer, Withdrawal } from './wallet.model';

// What the wallet's use cases take and return, in domain form. Text fields arrive as the caller
// sent them (the services validate them, in the order README.md documents); amounts as decimal
// strings, parsed by the service so their errors keep their place in that order.

/** A mutation with an idempotency key: `requestJson` is what its fingerprint covers (README.md "Idempotency"). */
export interface Keyed {
  idempotencyKey: string;
  /** The request as the client sent it (proto3 JSON); the key itself is left out of the fingerprint. */
  requestJson: Record<string, unknown>;
}

export interface PageQuery {
  cursor?: string;
  limit?: number;
}

export interface FaucetCommand extends Keyed {
  agentId: string;
  amount: string;
  currency: string;
  category: string;
}

export interface TransferCommand extends Keyed {
  agentId: string;
  toAgentId: string;
  amount: string;
  currency: string;
  memo?: string;
}

export interface CreateHoldCommand extends Keyed {
  agentId: string;
  amount: string;
  currency: string;
  expiresAt?: Date;
  reference?: string;
  controller?: string;
}

export interface HoldCommand extends Keyed {
  agentId: string;
  holdId: string;
}

export interface ConsumeHoldCommand extends HoldCommand {
  toAgentId: string;
  amount?: string;
}

export interface CreateDepositCommand extends Keyed {
  agentId: string;
  amount: string;
  currency: string;
  /** undefined: not given or not one the service knows. */
  method: DepositMethod | undefined;
  reference?: string;
}

export interface DepositCommand extends Keyed {
  agentId: string;
  depositId: string;
}

export interface ListDepositsQuery {
  agentId: string;
  page?: PageQuery;
  /** undefined: any status; null: a status the service does not know. */
  status: DepositStatus | null | undefined;
}

/** The key is optional for this mutation: empty = no idempotency. */
export interface CreatePayoutDestinationCommand extends Keyed {
  agentId: string;
  /** undefined: not given or not one the service knows. */
  type: PayoutDestinationType | undefined;
  details: Record<string, string>;
  label: string;
}

export interface CreateWithdrawalCommand extends Keyed {
  agentId: string;
  amount: string;
  currency: string;
  payoutDestinationId: string;
}

export interface WithdrawalCommand extends Keyed {
  agentId: string;
  withdrawalId: string;
}

export interface SettleCommand extends HoldCommand {
  contractId: string;
  payeeAgentId: string;
  amount?: string;
  fee?: string;
  /** "market" (absent or "") or "commerce": only that service's holds move. */
  controller?: string;
  /** Commerce only, instead of payeeAgentId: pay the merchant's settlement account. */
  payeeMerchantDomain?: string;
}

export interface RefundCommand extends HoldCommand {
  contractId: string;
  controller?: string;
}

export interface CorrectSettlementCommand extends Keyed {
  agentId: string;
  receiptId: string;
  reason: string;
}

/** Commerce post-purchase refund of a merchant settlement receipt (controller must be "commerce"). */
export interface RefundPurchaseCommand extends Keyed {
  agentId: string;
  receiptId: string;
  amount: string;
  reason: string;
  controller: string;
  /** What the refund is for (commerce's case id); empty = none. */
  reference: string;
}

export interface ReceiptQuery {
  receiptId: string;
  contractId: string;
}

export interface SetControlsCommand {
  /** As asked: the service validates the switch names. */
  controls: { readOnly: boolean; killSwitches: readonly string[] } | undefined;
  reason: string;
}

/** A mutation's answer: `idempotentReplayed` when it is the stored answer of an earlier request with the key. */
export type Replayable<T> = T & { idempotentReplayed: boolean };

export interface WalletBalances {
  agentId: string;
  balances: Balance[];
  asOf: Date;
}

export type FaucetResult = Replayable<{ grant: FaucetGrant }>;
export type TransferResult = Replayable<{ transfer: Transfer }>;
export type HoldResult = Replayable<{ hold: Hold }>;
export type DepositResult = Replayable<{ deposit: Deposit }>;
export type PayoutDestinationResult = Replayable<{ payoutDestination: PayoutDestination }>;
export type WithdrawalResult = Replayable<{ withdrawal: Withdrawal }>;
/** Settle and Refund: the receipt and the hold after the move. */
export type SettlementResult = Replayable<{ receipt: Receipt; hold: Hold }>;
export type CorrectionResult = Replayable<{ receipt: Receipt }>;
/** RefundPurchase: the purchase_refund receipt, the settlement's refunds so far (this one included) and what it paid the merchant. */
export type PurchaseRefundResult = Replayable<{ receipt: Receipt; refundedTotal: bigint; settledAmount: bigint }>;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
