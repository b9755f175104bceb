// A commerce intent (AP2 IntentMandate): what an agent set out to buy — a description, the
// merchants and skus it may buy from/of (empty = any), the most one session under it may total,
// whether the merchant must be able to report refunds, and until when. Immutable once created.

export interface IntentRecord {
  intentId: string;
  agentId: string;
  description: string;
  merchants: string[];
  skus: string[];
  /** Micro-units of `currency`: the most ONE checkout session under the intent may total. */
  budget: bigint;
  currency: string;
  requiresRefundability: boolean;
  expiresAt: Date;
  createdAt: Date;
}

/** Who calls, as the gateway authenticated it (request `actor`). */
export interface IntentActor {
  /** The acting agent; null for the operator (or when the gateway sent none). */
  agentId: string | null;
  operator: boolean;
}
