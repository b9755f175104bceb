// Spending mandates (AP2-style, DESIGN §4 "Commerce"): who may spend for whom, where, how much.
// Amounts are BIGINT micro-units of `limits.currency`.

export const MANDATE_STATUSES = ['active', 'paused', 'revoked', 'expired', 'exhausted'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];
export const AUTONOMY_MODES = ['autonomous', 'step_up', 'manual'] as const;
export type AutonomyMode = (typeof AUTONOMY_MODES)[number];

export interface Autonomy {
  mode: AutonomyMode;
  /** Above this total, approval is needed (mode step_up); null = no threshold. */
  stepUpThreshold: { amount: bigint; currency: string } | null;
  /** A merchant the buyer has never completed a purchase with needs approval. */
  approvalForNewMerchants: boolean;
  /** Spend per UTC day under the mandate; null = none. */
  dailyLimit: bigint | null;
}

export interface MandateScope {
  /** Empty = any. */
  merchants: string[];
  categories: string[];
  skus: string[];
}

export interface MandateRecord {
  mandateId: string;
  signerAgentId: string;
  agentId: string;
  scope: MandateScope;
  limits: { perTransaction: bigint; total: bigint; currency: string };
  expiresAt: Date;
  signature: string;
  /** Stored status; `expired` is derived when read (effectiveStatus). */
  status: Exclude<MandateStatus, 'expired'>;
  spent: bigint;
  reserved: bigint;
  autonomy: Autonomy;
  createdAt: Date;
  updatedAt: Date;
}

/** One spend the checkout asks the mandate about (create, update and complete). */
export interface SpendAttempt {
  buyerAgentId: string;
  merchantDomain: string;
  currency: string;
  /** The checkout total, micro-units. */
  total: bigint;
  /** Every line: its sku (UCP item.id) and category when the merchant gives one (item.category). */
  lines: Array<{ sku: string; category: string | null }>;
  now: Date;
  /** Whether the buyer has completed a purchase with this merchant before. */
  knownMerchant: boolean;
  /** Spent today (UTC) under the mandate, completes in flight included. */
  spentToday: bigint;
}

/** Why a checkout waits for the signer: null = no approval needed. */
export type ApprovalNeed = null | 'step_up_threshold' | 'new_merchant' | 'manual_mode';
