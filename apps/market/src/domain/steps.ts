import type { ResolutionPlan } from './money';
import type { SagaKind } from './model';

/** Wallet idempotency key of a step: one per step, so a new award attempt never replays an old refusal. */
export function walletKey(contractId: string, kind: SagaKind, stepId: string): string {
  return `mkt:${contractId}:${kind}:${stepId}`;
}

/** Params of each step kind (stored as jsonb; amounts as micro-unit strings). */
export interface AwardParams {
  offerId: string;
  buyerId: string;
  sellerId: string;
  price: string;
  currency: string;
}
export interface SettleParams {
  buyerId: string;
  sellerId: string;
  holdId: string;
  amount: string;
  fee: string;
}
export interface ReleaseParams {
  buyerId: string;
  holdId: string;
  /** The contract status the state change already moved to (cancelled | expired). */
  reason: 'cancelled' | 'expired';
}
export interface ResolveParams {
  disputeId: string;
  buyerId: string;
  sellerId: string;
  holdId: string | null;
  currency: string;
  outcome: 'seller' | 'buyer' | 'split';
  sellerShareBps: number | null;
  rationale: string;
  resolvedBy: string;
  plan: ResolutionPlan;
}
