import type { DepositStatus, HoldStatus, WithdrawalStatus } from './state-machine';

// The wallet's entities in domain form: amounts are bigint micro-units, times are Dates.

export interface Balance {
  currency: string;
  available: bigint;
  held: bigint;
}

export interface Transfer {
  transferId: string;
  fromAgentId: string;
  toAgentId: string;
  amount: bigint;
  currency: string;
  memo: string | null;
  journalEntryId: string;
  createdAt: Date;
}

export interface FaucetGrant {
  faucetGrantId: string;
  agentId: string;
  amount: bigint;
  currency: string;
  category: string;
  journalEntryId: string;
  grantedToday: bigint;
  remainingToday: bigint;
  resetsAt: Date;
  createdAt: Date;
}

export interface Hold {
  holdId: string;
  agentId: string;
  amount: bigint;
  currency: string;
  status: HoldStatus;
  expiresAt: Date | null;
  reference: string | null;
  consumedAmount: bigint | null;
  releasedAmount: bigint | null;
  consumedToAgentId: string | null;
  journalEntryIds: string[];
  createdAt: Date;
  updatedAt: Date;
  /** "agent" or the controlling service ("market"): holds/hold-control.ts. */
  controller: string;
}

export type DepositMethod = 'sandbox' | 'bank' | 'crypto';

export interface Deposit {
  depositId: string;
  agentId: string;
  amount: bigint;
  currency: string;
  method: DepositMethod;
  reference: string | null;
  status: DepositStatus;
  journalEntryId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type PayoutDestinationType = 'bank_account' | 'crypto_address' | 'sandbox';

export interface PayoutDestination {
  payoutDestinationId: string;
  agentId: string;
  type: PayoutDestinationType;
  details: Record<string, string>;
  label: string;
  createdAt: Date;
}

export interface Withdrawal {
  withdrawalId: string;
  agentId: string;
  amount: bigint;
  currency: string;
  payoutDestinationId: string;
  status: WithdrawalStatus;
  failureReason: string | null;
  journalEntryIds: string[];
  createdAt: Date;
  updatedAt: Date;
}
