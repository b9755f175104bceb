// Post-purchase cases (DESIGN §4 Commerce): what a buyer opens about a deal it paid, the
// operator decides, and an approval credits back through wallet-ledger.

export type CaseType = 'return' | 'refund' | 'chargeback';
export type CaseStatus = 'open' | 'under_review' | 'approved' | 'denied' | 'closed';
/** none until approved; pending from the approval's commit until wallet-ledger's credit is recorded. */
export type RefundState = 'none' | 'pending' | 'credited';
/** `refund_refused`: wallet-ledger refused the credit for good; the worker stops retrying it. */
export type CaseEventType = 'opened' | 'status_changed' | 'evidence_added' | 'refund_credited' | 'refund_refused';

export const CASE_TYPES: readonly CaseType[] = ['return', 'refund', 'chargeback'];

export interface CaseRecord {
  caseId: string;
  dealId: string;
  buyerAgentId: string;
  merchantDomain: string;
  type: CaseType;
  reason: string;
  /** Micro-units asked back. */
  amount: bigint;
  currency: string;
  status: CaseStatus;
  evidenceRefs: string[];
  refundState: RefundState;
  refundReceiptId: string | null;
  /** The wallet-ledger refund receipt (exchange-signed), snake_case JSON as GET /v1/receipts answers. */
  refundReceipt: Record<string, unknown> | null;
  refundedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CaseEventRecord {
  eventId: string;
  caseId: string;
  seq: number;
  type: CaseEventType;
  fromStatus: CaseStatus | null;
  toStatus: CaseStatus | null;
  /** The acting agent id, "operator", or "system:commerce" for the credit. */
  actor: string;
  note: string | null;
  evidenceRefs: string[];
  amount: bigint | null;
  receiptId: string | null;
  at: Date;
}

/** What a case needs of the purchase it is about. */
export interface PurchaseFacts {
  dealId: string;
  buyerAgentId: string;
  merchantDomain: string;
  /** Paid (micro-units). */
  amount: bigint;
  /** Credited back so far by approved cases. */
  refunded: bigint;
  currency: string;
  /** The wallet-ledger settlement receipt a refund pays back. */
  receiptId: string;
}

/** Who calls, as the gateway authenticated it (request `actor`). */
export interface Actor {
  agentId: string | null;
  operator: boolean;
}

export const actorName = (actor: Actor): string => (actor.operator ? 'operator' : (actor.agentId ?? ''));
