// Feedback on a purchase: its buyer rates the deal once (1-5, with an optional comment).

export interface FeedbackRecord {
  feedbackId: string;
  dealId: string;
  buyerAgentId: string;
  merchantDomain: string;
  rating: number;
  comment: string;
  createdAt: Date;
}

/** Who calls, as the gateway authenticated it (request `actor`). */
export interface FeedbackActor {
  agentId: string | null;
  operator: boolean;
}

/** The purchase a feedback is about: who bought, from whom. */
export interface DealParties {
  dealId: string;
  buyerAgentId: string;
  merchantDomain: string;
}
