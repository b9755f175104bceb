// Transparency rollups (micro-units of their currency; counts as numbers).

export interface CurrencyRollup {
  currency: string;
  /** Completed purchases in the window: paid, and list − paid. */
  spend: bigint;
  savings: bigint;
  purchases: number;
  /** Sessions with an approval_requested entry in the window; approval_denied decisions in it. */
  escalations: number;
  approvalsDenied: number;
  /** Cases opened in the window, by type. */
  returns: number;
  refunds: number;
  chargebacks: number;
  /** Credited back by cases whose refund was credited in the window. */
  refunded: bigint;
}

export interface AgentSpendSavings {
  agentId: string;
  currency: string;
  spend: bigint;
  savings: bigint;
  purchases: number;
  refunded: bigint;
  /** spend − refunded (negative when a window's refunds are for earlier purchases). */
  netSpend: bigint;
}

/** Where a spend-savings page continues: after this (agent, currency). */
export interface AgentCurrencyKey {
  agentId: string;
  currency: string;
}
