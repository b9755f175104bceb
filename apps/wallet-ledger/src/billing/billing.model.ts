import type { ProjectionFigures } from './projection';

// The billing area's entities (README.md "Billing"); proto forms in billing.mapper.ts.

export type BillingProjectionStatus = 'draft' | 'attached' | 'superseded' | 'emitted';
export type PeriodReceiptStatus = 'draft' | 'emitted';

export interface BillingProjection {
  projectionId: string;
  agentId: string;
  period: string;
  status: BillingProjectionStatus;
  figures: ProjectionFigures;
  computedAt: Date;
  periodReceiptId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PeriodReceipt {
  periodReceiptId: string;
  agentId: string;
  period: string;
  status: PeriodReceiptStatus;
  projectionId: string;
  projection: BillingProjection;
  /** Set once emitted: the registry object, the payload as signed, the exchange signature. */
  objectId: string | null;
  payloadJson: string | null;
  signature: string | null;
  signerPublicKey: string | null;
  emittedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DifferenceKind =
  | 'missing'
  | 'extra'
  | 'repriced'
  | 'altered'
  | 'total_mismatch'
  | 'event_invalid'
  | 'epoch_table_invalid'
  | 'signature_invalid';

export interface ReconciliationDifference {
  kind: DifferenceKind;
  /** The meter event's object id, "meter/epoch", "total/<currency>", an epoch, or the receipt id. */
  ref: string;
  /** Small JSON of what the receipt says and what recomputing gives ("" when absent). */
  receiptJson: string;
  recomputedJson: string;
  detail: string;
}

export interface Reconciliation {
  periodReceiptId: string;
  agentId: string;
  period: string;
  consistent: boolean;
  signatureValid: boolean;
  differences: ReconciliationDifference[];
  receiptTotals: { currency: string; amount: bigint }[];
  recomputedTotals: { currency: string; amount: bigint }[];
  receiptEventCount: number;
  recomputedEventCount: number;
  reconciledAt: Date;
}
